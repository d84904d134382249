/**
 * Reading an answer's body with a ceiling. An API that answers a list of
 * 138 MB would otherwise be held whole (as bytes, then a string, then parsed
 * objects), take the process past a gigabyte and stall everything else on it
 * (health probes included) while it is parsed. Past the ceiling the read
 * stops, the connection is closed, and the caller gets an error that names
 * the size, so whoever reads it knows why.
 */

/** A body being streamed (node-fetch gives a Node Readable); request.ts's ResponseStream has this shape. */
interface Body extends AsyncIterable<Uint8Array | string> {
  destroy(error?: Error): void;
}

/** Bytes as the error shows them: `64.0 MiB`. */
export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** Why a body cannot be read: over the limit by its declared length, or found over it while reading. */
export class BodyTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly declared?: number,
  ) {
    super(
      declared === undefined
        ? `answer is over the client's limit of ${mib(limit)} (stopped reading there)`
        : `answer of ${mib(declared)} is over the client's limit of ${mib(limit)}`,
    );
    this.name = 'BodyTooLarge';
  }
}

/**
 * The body as text, read piece by piece; throws BodyTooLarge (after closing
 * the body) once `contentLength` or the bytes read pass `limit`.
 */
export async function readCapped(
  body: Body | null,
  contentLength: string | null,
  limit: number,
): Promise<string> {
  if (!body) return '';
  const declared = contentLength === null ? Number.NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared > limit) {
    body.destroy();
    throw new BodyTooLarge(limit, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = asBuffer(chunk);
    size += bytes.length;
    if (size > limit) {
      body.destroy();
      throw new BodyTooLarge(limit);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A chunk as a Buffer, without copying its bytes. */
export function asBuffer(chunk: Uint8Array | string): Buffer {
  return typeof chunk === 'string'
    ? Buffer.from(chunk)
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
