/**
 * Turns a byte or text stream into lines. The log format of the service is
 * unknown (see the reference), so this accepts LF and CRLF endings, keeps
 * empty lines, decodes UTF-8 across chunk boundaries, and yields a final line
 * that has no terminator. It is on the log-tail hot path: the work per chunk
 * is indexOf/slice, never a loop over bytes.
 */

const LF = '\n';
const CR = 13;

/** Lines of a stream of chunks (bytes as UTF-8, or text), without their LF/CRLF terminators. */
export async function* splitLines(chunks: AsyncIterable<Uint8Array | string>): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8');
  // Text of the line in progress, kept as pieces so a long line over many chunks is joined once.
  let carry: string[] = [];
  for await (const chunk of chunks) {
    // A text chunk after bytes first flushes what the decoder holds (a character split by the switch).
    const text =
      typeof chunk === 'string' ? decoder.decode() + chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    let end = text.indexOf(LF);
    while (end !== -1) {
      let line = text.slice(start, end);
      if (carry.length > 0) {
        carry.push(line);
        line = carry.join('');
        carry = [];
      }
      // A CR ending one chunk and the LF starting the next meet here, in the joined line.
      yield stripCr(line);
      start = end + 1;
      end = text.indexOf(LF, start);
    }
    if (start < text.length) carry.push(start === 0 ? text : text.slice(start));
  }
  const rest = decoder.decode();
  if (rest !== '') carry.push(rest);
  if (carry.length > 0) yield stripCr(carry.join(''));
}

/** Lines of a complete text, by the same rules as splitLines. */
export function splitText(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(LF).map(stripCr);
  // A terminator at the very end closes the last line; it does not open an empty one.
  if (text.endsWith(LF)) lines.pop();
  return lines;
}

function stripCr(line: string): string {
  return line.length > 0 && line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line;
}
