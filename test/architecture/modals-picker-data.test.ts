/**
 * The modals draw their pickers from picker data the form queries build in
 * changes/ (form-pickers.ts), never from the hosting API's objects (issue 25,
 * point 5): a change in an API shape then stops in changes/ instead of
 * reaching every form. The name rules are the one part of api-shapes/ a form
 * may still use, to say under a field what a valid name is.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');
/** Rules, not resources: what the modals may read from api-shapes/. */
const ALLOWED = new Set(['api-shapes/names.ts', 'api-shapes/replica-rules.ts']);

describe('the modals', () => {
  const graph = importGraph(SRC);
  const modals = [...graph.keys()].filter((file) => file.startsWith('slack/modals/'));

  it('import no resource types from api-shapes/, only the name rules', () => {
    const reaching = modals.flatMap((file) =>
      (graph.get(file) ?? [])
        .filter((target) => target.startsWith('api-shapes/') && !ALLOWED.has(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(reaching).toEqual([]);
  });

  it('take their lists from the form queries’ picker data', () => {
    // The check sees what it is meant to: the modal files are found and use the picker types.
    expect(modals.length).toBeGreaterThan(10);
    const users = modals.filter((file) => (graph.get(file) ?? []).includes('changes/form-pickers.ts'));
    expect(users.length).toBeGreaterThanOrEqual(5);
  });
});
