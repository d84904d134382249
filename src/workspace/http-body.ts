/**
 * Reading what a client sent: the raw body, and the Web API arguments in it.
 * WebClient sends form bodies with non-scalar arguments as JSON strings;
 * other clients send JSON with the token in the Authorization header. Tests
 * want one parsed shape either way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

/** Arguments WebClient JSON-encodes into form fields; parsed back so tests see objects. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata']);

export type Args = Record<string, unknown>;

/** The request body as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The arguments in a form or JSON body (empty when the body is neither). */
export function parseArgs(raw: string, contentType: string | undefined): Args {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  let args: Args = {};
  if (type === 'application/json') {
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Args;
    } catch {
      args = {};
    }
  } else if (type === 'application/x-www-form-urlencoded' || type === '') {
    for (const [key, value] of Object.entries(parseQuery(raw))) {
      args[key] = Array.isArray(value) ? value[value.length - 1] : value;
    }
  }
  for (const key of JSON_FIELDS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    try {
      args[key] = JSON.parse(value);
    } catch {
      // Slack would reject it; leave the string so the method handler reports the bad format.
    }
  }
  return args;
}

/** The token a call carries: the Bearer header wins over a `token` argument, as on Slack. */
export function tokenOf(req: IncomingMessage, args: Args): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null;
  if (match?.[1]) return match[1];
  return typeof args.token === 'string' && args.token ? args.token : undefined;
}

/** Writes a JSON answer with optional extra headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A string argument, or undefined when absent or not a string. */
export function str(args: Args, key: string): string | undefined {
  const value = args[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A boolean argument; form bodies carry booleans as 'true'/'false'. */
export function bool(args: Args, key: string): boolean {
  const value = args[key];
  return value === true || value === 'true' || value === '1' || value === 1;
}
