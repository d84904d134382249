/**
 * Stands in front of Bolt's HTTPReceiver on the events path: reads the body
 * once, and answers 400 (with the reason) when its shape is one Bolt or the
 * listeners cannot handle, so no request, signed or not, can crash the
 * process or end in a 500. Well-formed bodies go on to Bolt untouched (Bolt
 * reuses the buffered body and still checks the signature).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import { HTTPModuleFunctions } from '@slack/bolt';
import type { Logger } from '../../runtime/logger.js';
import { commandProblem, eventProblem, interactionProblem } from './payload-shape.js';

const FORM = 'application/x-www-form-urlencoded';

/** Why the body of a POST to the events path cannot be handled; undefined when Bolt should have it. */
function bodyProblem(rawBody: string, contentType: string | undefined): string | undefined {
  if (contentType === FORM) {
    const fields = parseForm(rawBody);
    // Slack's unsigned reachability probe: Bolt answers it (and drops anything else sent with it).
    if (fields.ssl_check !== undefined) return undefined;
    if (fields.payload === undefined) return commandProblem(fields);
    if (typeof fields.payload !== 'string') return 'payload is given more than once';
    const payload = parseJson(fields.payload);
    return payload.ok ? interactionProblem(payload.value) : undefined;
  }
  const body = parseJson(rawBody);
  return body.ok ? eventProblem(body.value) : undefined;
}

// Unparseable JSON is left to Bolt, which checks the signature first and answers 401 or 400.
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Wraps Bolt's request listener so malformed bodies on `eventsPath` get a 400 instead of reaching Bolt. */
export function guardRequests(
  listener: RequestListener,
  eventsPath: string,
  logger: Logger,
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || pathOf(req) !== eventsPath) {
      listener(req, res);
      return;
    }
    HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit).then(
      (buffered) => {
        const problem = bodyProblem(buffered.rawBody.toString('utf8'), req.headers['content-type']);
        if (problem === undefined) {
          listener(buffered, res);
          return;
        }
        logger.warn('refused a malformed Slack request', { problem });
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Malformed Slack request: ${problem}.`);
      },
      (err: unknown) => {
        const tooLarge = HTTPModuleFunctions.isRawBodyError(err) && err.statusCode === 413;
        logger.warn('could not read a Slack request body', { error: err });
        res.writeHead(tooLarge ? 413 : 400);
        res.end();
      },
    );
  };
}

function pathOf(req: IncomingMessage): string | undefined {
  try {
    return new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}
