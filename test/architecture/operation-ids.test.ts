/**
 * One place per operation: an operation is described once
 * (src/operations/catalogue.ts) and everything else derives from that
 * descriptor or is checked against it by the compiler. So an operation's id,
 * written as a string, appears in few files of src/: its descriptor, the
 * change table (schema and module, src/changes/operations/index.ts), the
 * Slack form table (src/slack/modals/index.ts) and the grammar that parses
 * it. A fifth file naming it is a list that drifts, or a rule that belongs in
 * the descriptor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CHANGE_OPERATIONS, OPERATIONS, READ_OPERATIONS } from '../../src/operations/index.js';

const MAX_FILES = 4;

/**
 * The `… show` reads share their spelling with the grammar's command kinds
 * (`{ kind: 'formation.show' }`), so besides the descriptor, the domain read
 * that authorizes them (changes/reads.ts) and their parse, the command type
 * (slack/grammar/command.ts) and the read dispatch (slack/handlers/reads.ts)
 * write them: five files, and no more.
 */
const SHOW_READ_CEILING: Readonly<Record<string, number>> = {
  'formation.show': 5,
  'region.show': 5,
  'armada.show': 5,
  'armadaset.show': 5,
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const SRC = join(process.cwd(), 'src');
const FILES = tsFiles(SRC).map((path) => ({
  path: relative(process.cwd(), path),
  text: readFileSync(path, 'utf8'),
}));

/** The files of src/ that write `id` as a quoted string. */
function filesNaming(id: string): string[] {
  return FILES.filter((f) => f.text.includes(`'${id}'`) || f.text.includes(`"${id}"`)).map((f) => f.path);
}

describe('an operation id is written in few files of src/', () => {
  it('knows every operation', () => {
    expect(OPERATIONS.length).toBe(READ_OPERATIONS.length + CHANGE_OPERATIONS.length);
    expect(CHANGE_OPERATIONS.length).toBeGreaterThan(0);
  });

  it.each(CHANGE_OPERATIONS.map((id) => [id]))('change %s: at most four files', (id) => {
    const files = filesNaming(id);
    expect(files).toContain('src/operations/catalogue.ts');
    expect(files.length <= MAX_FILES ? [] : files).toEqual([]);
  });

  it.each(READ_OPERATIONS.map((id) => [id]))(
    'read %s: at most four files (the show reads: their ceiling)',
    (id) => {
      const files = filesNaming(id);
      expect(files).toContain('src/operations/catalogue.ts');
      const ceiling = SHOW_READ_CEILING[id] ?? MAX_FILES;
      expect(files.length <= ceiling ? [] : files).toEqual([]);
    },
  );
});
