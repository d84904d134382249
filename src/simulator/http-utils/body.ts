/** Reading and decoding request bodies (JSON, YAML, form) with a size limit. */
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, SimError } from './status.js';

/** Bodies above this many bytes are refused with 413. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The request's media type, lowercased, without parameters ('' when absent). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The whole body as UTF-8 text; 413 beyond `limit` bytes. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new SimError(413, 'RequestEntityTooLarge', `request body exceeds ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses `text` as JSON, 400 naming the problem when it is not. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`request body is not valid JSON: ${(err as Error).message}`);
  }
}

const JSON_TYPES = new Set(['', 'application/json']);
const YAML_TYPES = new Set(['application/yaml', 'application/x-yaml', 'text/yaml']);

/** A create body: JSON (or YAML, which the service also accepts); 415 for any other media type. */
export async function readObjectBody(req: IncomingMessage): Promise<unknown> {
  const type = mediaType(req);
  if (!JSON_TYPES.has(type) && !YAML_TYPES.has(type)) {
    throw new SimError(
      415,
      'UnsupportedMediaType',
      `unsupported media type "${type}": send application/json (or application/yaml)`,
    );
  }
  const text = await readBody(req);
  if (text.trim() === '') throw badRequest('request body is empty');
  if (!YAML_TYPES.has(type)) return parseJson(text);
  try {
    return parseYaml(text) as unknown;
  } catch (err) {
    throw badRequest(`request body is not valid YAML: ${(err as Error).message}`);
  }
}
