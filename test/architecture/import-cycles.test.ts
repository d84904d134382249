/** No import cycles anywhere in src/ (ARCHITECTURE.md): each file's imports form a tree of layers. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { importCycles, importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

describe('the import graph of src/', () => {
  it('reads the imports the sources have (the check sees what it is meant to)', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('startup/run.ts')).toContain('startup/start-bot.ts');
    // Type-only imports count: a cycle through types still ties the files together.
    expect(graph.get('slack/bot.ts')).toContain('changes/engine.ts');
  });

  it('has no cycles', () => {
    expect(importCycles(importGraph(SRC))).toEqual([]);
  });
});

describe('importCycles', () => {
  it('finds a cycle of three files and a file importing itself, and nothing in a tree', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});
