/** docs/policy.md names every operation a rule can name, so a policy author finds each one there. */
import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { OPERATIONS } from '../../src/policy/operations.js';

it('lists every operation id in docs/policy.md', () => {
  const doc = readFileSync(new URL('../../docs/policy.md', import.meta.url), 'utf8');
  const missing = OPERATIONS.filter((op) => !doc.includes(`\`${op}\``));
  expect(missing).toEqual([]);
});
