/**
 * One place per operation: an operation is described once
 * (src/operations/catalogue.ts) and everything else derives from that
 * descriptor or is checked against it by the compiler. A change operation is
 * one folder, src/changes/operations/<id>/ (its id in `id.ts`, its module,
 * its inverse's restore), and its id, written as a string, appears in that
 * folder and the catalogue only: the change table, the Slack form table and
 * the grammar import the folder's constant. A read is written in its
 * descriptor, the domain read that authorizes it (src/changes/reads.ts), its
 * parse and the read dispatch (src/slack/handlers/reads.ts); a show read's
 * Command is derived from its descriptor's `shows`
 * (src/slack/grammar/command.ts). Another file naming an id is a list that
 * drifts, or a rule that belongs in the descriptor or the folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CHANGE_OPERATIONS, OPERATIONS, READ_OPERATIONS } from '../../src/operations/index.js';

/** A read's id: its descriptor, its domain read, its parse and the read dispatch. */
const MAX_READ_FILES = 4;

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
  it.each(READ_OPERATIONS.map((id) => [id]))('%s (a read): at most four files', (id) => {
    const files = filesNaming(id);
    expect(files).toContain('src/operations/catalogue.ts');
    expect(files.length <= MAX_READ_FILES ? [] : files).toEqual([]);
  });

  it.each(CHANGE_OPERATIONS.map((id) => [id]))('%s (a change): its folder and the catalogue only', (id) => {
    const folder = `src/changes/operations/${id}/`;
    expect(existsSync(join(folder, 'id.ts'))).toBe(true);
    const files = filesNaming(id);
    expect(files).toContain('src/operations/catalogue.ts');
    expect(files).toContain(`${folder}id.ts`);
    expect(files.filter((f) => f !== 'src/operations/catalogue.ts' && !f.startsWith(folder))).toEqual([]);
  });
});
