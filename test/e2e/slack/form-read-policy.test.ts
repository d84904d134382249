/**
 * Issue 30, point 2: type-ahead and form reloads read through the same
 * authorization as the read commands. A person refused `armadas prod` gets no
 * prod names from a picker (nor from a form switched to prod by its
 * environment select), and a workspace the policy does not admit gets none.
 * Over the real Bolt app, signed requests from the Slack stand-in, and the
 * simulator.
 */
import { afterEach, expect, it } from '@jest/globals';
import { DEFAULT_POLICY_YAML } from '../../../src/policy/default-policy.js';
import { MODAL_RELOAD_ACTION, suggestActionId } from '../../../src/slack/ids.js';
import { WHERE_BLOCKS } from '../../../src/slack/modals/index.js';
import { TEST_TEAM } from '../../../src/workspace/identity.js';
import { blockSuggestionPayload } from '../../../src/workspace/payloads.js';
import { blockActionsPayload } from '../../../src/workspace/signing.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, get, openedViewId, shown, viewOf } from './harness-extras.js';

/** Alice may read dev; prod reads are for the lead alone. */
const PROD_READS_FOR_LEAD = `
version: 1
rules:
  - name: prod-reads
    operations: [images.list, vessels.list, formation.show, region.show, sites.list, logs.read, armadas.list, armada.show, armadaset.show]
    target: { environment: prod }
    requesters: { users: [U0LEAD] }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

/** What the type-ahead answers for `actionId` typed in `view` (the action id is the client's to send). */
async function suggest(view: StoredView, actionId: string, query: string): Promise<string[]> {
  const res = await h.interact(blockSuggestionPayload({ view, actionId, query }));
  expect(res.status).toBe(200);
  return (res.body as { options: { value: string }[] }).options.map((o) => o.value);
}

/** The sum of every `harbor_errors_total` sample. */
async function errorsTotal(): Promise<number> {
  const text = (await get(h, '/metrics')).text;
  return text
    .split('\n')
    .filter((l) => l.startsWith('harbor_errors_total{'))
    .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
}

/** Reads of anything in prod that reached the API. */
const prodReads = () =>
  h.sim.countRequests('GET', '/api/armada/v1/environments/prod') +
  h.sim.countRequests('GET', '/api/formation/v1/environments/prod');

it('a person refused `armadas prod` gets no prod armada or vessel names from the type-ahead', async () => {
  h = await startBotHarness({ policy: PROD_READS_FOR_LEAD });
  await h.slash('armadas prod', ALICE);
  expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/not allowed/);
  await h.slash('logs dev', ALICE);
  const view = viewOf(h, openedViewId(h));
  // Allowed in dev: the same request for dev names answers.
  expect(await suggest(view, suggestActionId('armadas', 'dev'), '')).toContain('duel');
  expect(await suggest(view, suggestActionId('armadas', 'prod'), '')).toEqual([]);
  expect(await suggest(view, suggestActionId('vessels', 'prod'), '')).toEqual([]);
  expect(await suggest(view, suggestActionId('armadasets', 'prod'), '')).toEqual([]);
  // Nothing was read from the API for prod, and a refusal is not an error.
  expect(prodReads()).toBe(0);
  expect(await errorsTotal()).toBe(0);
});

it('a form switched to prod by its environment select lists no prod vessels, and says why', async () => {
  h = await startBotHarness({ policy: PROD_READS_FOR_LEAD });
  await h.slash('logs dev', ALICE);
  const viewId = openedViewId(h);
  expect(shown(viewOf(h, viewId))).toContain('lobby-1');
  const view = viewOf(h, viewId);
  await h.interact(
    blockActionsPayload({
      actionId: MODAL_RELOAD_ACTION,
      view,
      values: answers(view, { [WHERE_BLOCKS.environment]: 'prod' }),
      user: ALICE,
    }),
  );
  const reloaded = shown(viewOf(h, viewId));
  expect(reloaded).not.toContain('arena-1');
  expect(reloaded).toMatch(/not allowed/);
  expect(prodReads()).toBe(0);
});

it('a workspace the policy does not admit gets no names from the type-ahead', async () => {
  h = await startBotHarness({ policy: `${DEFAULT_POLICY_YAML}\nworkspaces: [${TEST_TEAM.id}]\n` });
  await h.slash('logs dev', ALICE);
  const view = viewOf(h, openedViewId(h));
  expect(await suggest(view, suggestActionId('vessels', 'dev'), '')).toContain('lobby-1');
  const payload = blockSuggestionPayload({ view, actionId: suggestActionId('vessels', 'dev'), query: '' });
  const res = await h.interact({
    ...payload,
    user: { ...payload.user, team_id: 'T0OTHERORG' },
    team: { id: 'T0OTHERORG', domain: 'elsewhere' },
  });
  expect((res.body as { options: unknown[] }).options).toEqual([]);
});
