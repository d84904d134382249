/**
 * One place per operation: an operation is described once
 * (src/operations/catalogue.ts) and everything else derives from that
 * descriptor or is checked against it by the compiler. So an operation's id,
 * written as a string, appears in few files of src/: its descriptor, the
 * change table (schema and module, src/changes/operations/index.ts), the
 * Slack form table (src/slack/modals/index.ts) and the grammar that parses
 * it. A read is written in its descriptor, the domain read that authorizes
 * it (src/changes/reads.ts), its parse and the read dispatch
 * (src/slack/handlers/reads.ts); a show read's Command is derived from its
 * descriptor's `shows` (src/slack/grammar/command.ts). A fifth file naming an
 * id is a list that drifts, or a rule that belongs in the descriptor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CHANGE_OPERATIONS, OPERATIONS, READ_OPERATIONS } from '../../src/operations/index.js';

const MAX_FILES = 4;

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

  // Every id of the catalogue, so the operations other branches add are held to it too.
  it.each(OPERATIONS.map((id) => [id]))('%s: at most four files', (id) => {
    const files = filesNaming(id);
    expect(files).toContain('src/operations/catalogue.ts');
    expect(files.length <= MAX_FILES ? [] : files).toEqual([]);
  });
});
