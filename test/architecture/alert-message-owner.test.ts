/**
 * A watch alert's Slack message has one owner (issue 29, in the shape of
 * issue 25's change-message room): `slack/alerts/messenger.ts` alone posts
 * and edits it, drawn by `slack/render/alert-message.ts`, when the poller
 * (watches/poll.ts) draws what the store says is not drawn yet. Nothing else
 * in src/ reaches that renderer.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const OWNER = 'slack/alerts/messenger.ts';
const DRAWING = 'slack/render/alert-message.ts';

it('only the alert messenger imports what draws an alert message', () => {
  const importers = [...importGraph(SRC)].filter(([, tos]) => tos.includes(DRAWING)).map(([from]) => from);
  expect(importers).toEqual([OWNER]);
});
