/**
 * Real signed requests into the bot's Bolt HTTP receiver, built exactly as
 * Slack builds them: `v0=` + HMAC-SHA256 of `v0:{timestamp}:{raw body}` in
 * `x-slack-signature`, the timestamp in `x-slack-request-timestamp`, and the
 * form content type Bolt insists on. Payload builders live in payloads.ts
 * and are re-exported here so a test needs one import.
 */
import { createHmac } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';

export * from './payloads.js';
export { staticSelect, textInput } from './view-state.js';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{rawBody}` keyed by the secret. */
export function signature(secret: string, timestamp: number | string, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** The current time in seconds, as Slack stamps requests (Bolt checks it against its own clock). */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The two headers that make a body a signed Slack request. */
export function signedHeaders(
  secret: string,
  rawBody: string,
  timestampSeconds: number = nowSeconds(),
): Record<string, string> {
  return {
    'x-slack-request-timestamp': String(timestampSeconds),
    'x-slack-signature': signature(secret, timestampSeconds, rawBody),
  };
}

interface PostSignedOptions {
  /** Default `application/x-www-form-urlencoded`, exactly (Bolt parses forms only with that value). */
  contentType?: string;
  /** Default now; older than 5 minutes is rejected by Bolt. */
  timestampSeconds?: number;
  /** `true` signs with a wrong secret; a string is sent as the signature verbatim. */
  forgeSignature?: boolean | string;
  headers?: Record<string, string>;
}

export interface SignedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The response body as text. */
  text: string;
  /** The body parsed as JSON when it is JSON, else the text ('' for an empty ack). */
  body: unknown;
}

/** POSTs `rawBody` to `url` signed with `secret` and returns what the receiver answered. */
export function postSigned(
  url: string,
  secret: string,
  rawBody: string,
  options: PostSignedOptions = {},
): Promise<SignedResponse> {
  const timestamp = options.timestampSeconds ?? nowSeconds();
  const headers = signedHeaders(secret, rawBody, timestamp);
  if (options.forgeSignature === true)
    headers['x-slack-signature'] = signature(`${secret}-forged`, timestamp, rawBody);
  else if (typeof options.forgeSignature === 'string') headers['x-slack-signature'] = options.forgeSignature;
  return new Promise<SignedResponse>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': options.contentType ?? FORM_CONTENT_TYPE,
          'content-length': String(Buffer.byteLength(rawBody)),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parseMaybeJson(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(rawBody);
  });
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
