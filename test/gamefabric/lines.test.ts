import { describe, expect, it } from '@jest/globals';
import { splitLines, splitText } from '../../src/gamefabric/lines.js';

async function* from(...chunks: (Uint8Array | string)[]): AsyncIterable<Uint8Array | string> {
  for (const chunk of chunks) yield chunk;
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('splitLines', () => {
  it('splits LF and CRLF lines within one chunk', async () => {
    expect(await collect(splitLines(from(bytes('a\nb\r\nc\n'))))).toEqual(['a', 'b', 'c']);
  });

  it('joins a line spread over several chunks', async () => {
    expect(await collect(splitLines(from(bytes('hel'), bytes('lo wo'), bytes('rld\nnext\n'))))).toEqual([
      'hello world',
      'next',
    ]);
  });

  it('handles a CRLF split across chunks (CR ends one chunk, LF starts the next)', async () => {
    expect(await collect(splitLines(from(bytes('one\r'), bytes('\ntwo\r'), bytes('\n'))))).toEqual([
      'one',
      'two',
    ]);
  });

  it('decodes a multi-byte UTF-8 character split across chunks', async () => {
    const all = bytes('größe 🚀 ok\n');
    // Cut inside the 2-byte ö and inside the 4-byte rocket.
    const cuts = [3, 11, 13];
    const chunks = [
      all.slice(0, cuts[0]),
      all.slice(cuts[0], cuts[1]),
      all.slice(cuts[1], cuts[2]),
      all.slice(cuts[2]),
    ];
    expect(await collect(splitLines(from(...chunks)))).toEqual(['größe 🚀 ok']);
  });

  it('yields a final line without a terminator, CR stripped', async () => {
    expect(await collect(splitLines(from(bytes('a\npartial'))))).toEqual(['a', 'partial']);
    expect(await collect(splitLines(from(bytes('a\npartial\r'))))).toEqual(['a', 'partial']);
  });

  it('keeps empty lines but does not invent one after a final terminator', async () => {
    expect(await collect(splitLines(from(bytes('\n\na\n\r\n\nb\n'))))).toEqual(['', '', 'a', '', '', 'b']);
  });

  it('yields nothing for an empty stream or empty chunks', async () => {
    expect(await collect(splitLines(from()))).toEqual([]);
    expect(await collect(splitLines(from(bytes(''), '')))).toEqual([]);
  });

  it('accepts text chunks and mixes them with bytes', async () => {
    expect(await collect(splitLines(from('x\ny', bytes('z\n'), 'w')))).toEqual(['x', 'yz', 'w']);
  });

  it('keeps a lone CR inside a line (only LF ends a line)', async () => {
    expect(await collect(splitLines(from('50%\r100%\n')))).toEqual(['50%\r100%']);
  });

  it('handles many lines in a large chunk', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`);
    expect(await collect(splitLines(from(bytes(`${lines.join('\r\n')}\r\n`))))).toEqual(lines);
  });
});

describe('splitText', () => {
  it('follows the same rules as splitLines', () => {
    expect(splitText('a\r\n\nb\n')).toEqual(['a', '', 'b']);
    expect(splitText('a\nlast')).toEqual(['a', 'last']);
    expect(splitText('')).toEqual([]);
    expect(splitText('\n')).toEqual(['']);
  });
});
