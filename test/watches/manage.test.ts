/**
 * watch, watches and unwatch without Slack: the policy's `watch.manage`
 * decides who may, the channel's reads decide what it is told (refused
 * outright when it may read nothing a watch reports, narrowed per object
 * otherwise), and the answers carry the poller's state (paused after an API
 * error). What changed lists the changes to the object and its region.
 */
import { afterAll, afterEach, beforeEach, expect, it } from '@jest/globals';
import { UserError } from '../../src/errors/user-error.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Store } from '../../src/store/types.js';
import { policyMayRead } from '../../src/watches/channel-reads.js';
import { Watches } from '../../src/watches/manage.js';
import { endReplicaStores, openReplicaStores } from './harness.js';

afterAll(endReplicaStores);

const NOW = Date.UTC(2026, 0, 1, 14, 0, 0);
const POLICY = `
version: 1
rules:
  - name: only-sre-watch-prod
    operations: [watch.manage]
    target: { environment: prod }
    requesters: { users: [USRE] }
  - name: prod-vessels-in-ops
    operations: [vessels.list]
    target: { environment: prod }
    channels: [COPS]
  - name: secret-armada
    operations: [armada.show]
    target: { environment: dev, armada: 'secret-*' }
    channels: [COPS]
  - name: reads
    operations: ['*.show', '*.list', watch.manage]
`;

let store: Store;
let close: () => Promise<void>;
let watches: Watches;
const policy = parsePolicy(POLICY, { resolveGroup: async () => [] });

beforeEach(async () => {
  const opened = await openReplicaStores('sqlite', 1);
  store = opened.stores[0] as Store;
  close = opened.close;
  watches = new Watches({
    store,
    policy,
    environments: async () => ['dev', 'prod'],
    intervalMs: 30_000,
    settleMs: 60_000,
  });
});
afterEach(async () => close());

const asker = (user: string, channel: string) => ({ user, channel, team: 'T1' });

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return (err as UserError).message;
}

it('lets only whom the policy names manage a watch, and says so', async () => {
  expect(await refusal(watches.watch(asker('UBOB', 'COPS'), 'prod', NOW))).toMatch(
    /only-sre-watch-prod.*USRE/,
  );
  expect(await refusal(watches.unwatch(asker('UBOB', 'COPS'), 'prod'))).toMatch(/only-sre-watch-prod/);
  expect(await store.listWatches({})).toEqual([]);
});

it('refuses a bad or unknown environment with its own message', async () => {
  expect(await refusal(watches.watch(asker('USRE', 'COPS'), 'Prod!', NOW))).toMatch(
    /not an environment name/,
  );
  expect(await refusal(watches.watch(asker('USRE', 'COPS'), 'staging', NOW))).toBe(
    'There is no environment "staging". Environments: dev, prod.',
  );
});

it('subscribes a channel only to what its policy lets it read', async () => {
  const general = await watches.watch(asker('USRE', 'CGENERAL'), 'prod', NOW);
  expect(general).toMatchObject({
    kind: 'watching',
    added: true,
    covered: ['Armadas', 'ArmadaSets', 'Formations'],
    left: [{ plural: 'Vessels', reason: expect.stringContaining('prod-vessels-in-ops') }],
  });
  const ops = await watches.watch(asker('USRE', 'COPS'), 'prod', NOW);
  expect(ops).toMatchObject({ covered: ['Armadas', 'ArmadaSets', 'Formations', 'Vessels'], left: [] });
  expect(await watches.watch(asker('USRE', 'COPS'), 'prod', NOW)).toMatchObject({ added: false });

  // Per object: a vessel alert goes to #ops only, and a secret armada too.
  const mayRead = policyMayRead(policy);
  const sub = (channel: string, env: string) => ({
    workspace: 'T1',
    channel,
    env,
    createdBy: 'U',
    createdAt: NOW,
  });
  const vessel = { kind: 'Vessel' as const, name: 'web-1', region: 'eu', state: 'Error' };
  expect(await mayRead(sub('CGENERAL', 'prod'), vessel)).toBe(false);
  expect(await mayRead(sub('COPS', 'prod'), vessel)).toBe(true);
  const secret = { kind: 'Armada' as const, name: 'secret-eu', state: 'Degraded' };
  expect(await mayRead(sub('CGENERAL', 'dev'), secret)).toBe(false);
  expect(await mayRead(sub('CGENERAL', 'dev'), { ...secret, name: 'duel' })).toBe(true);
});

it('refuses a channel that may read nothing a watch reports', async () => {
  const narrow = parsePolicy(
    `
version: 1
rules:
  - name: reads-in-ops
    operations: ['*.show', '*.list']
    channels: [COPS]
  - name: manage
    operations: [watch.manage]
`,
    { resolveGroup: async () => [] },
  );
  const w = new Watches({
    store,
    policy: narrow,
    environments: async () => ['dev'],
    intervalMs: 30_000,
    settleMs: 60_000,
  });
  expect(await refusal(w.watch(asker('U1', 'CGENERAL'), 'dev', NOW))).toMatch(
    /^This channel can not watch dev: it may read none of what a watch reports there \(Armadas: policy rule `reads-in-ops` lets only channel COPS/,
  );
});

it('lists the channel watches with the poller state, and unwatch ends one', async () => {
  await watches.watch(asker('USRE', 'COPS'), 'prod', NOW);
  await watches.watch(asker('USRE', 'COPS'), 'dev', NOW);
  await store.claimPoll('prod', 30_000, NOW);
  await store.notePoll('prod', {
    status: 503,
    reason: 'ServiceUnavailable',
    at: NOW,
    resumeAt: NOW + 60_000,
  });
  const listed = await watches.list(asker('UBOB', 'COPS'));
  expect(listed).toMatchObject({
    kind: 'watches',
    items: [
      { env: 'dev' },
      { env: 'prod', poller: { pausedStatus: 503, pausedAt: NOW, resumeAt: NOW + 60_000 } },
    ],
  });
  expect(await watches.unwatch(asker('USRE', 'COPS'), 'prod')).toEqual({
    kind: 'unwatched',
    env: 'prod',
    removed: true,
    still: ['dev'],
  });
  expect(await watches.unwatch(asker('USRE', 'COPS'), 'prod')).toMatchObject({ removed: false });
});

it('mutes an alert for an hour in its channel, and refuses an unknown or foreign one', async () => {
  await store.openAlerts([
    {
      id: 'a1',
      workspace: 'T1',
      channel: 'COPS',
      env: 'prod',
      objectKey: 'Vessel/web-1',
      kind: 'Vessel',
      name: 'web-1',
      state: 'Error',
      firstBadAt: NOW,
      openedAt: NOW,
      drawn: 'none',
    },
  ]);
  expect(await watches.mute(asker('USRE', 'COPS'), 'a1', NOW)).toMatchObject({
    mutedUntil: NOW + 3_600_000,
    mutedBy: 'USRE',
  });
  expect(await store.mutedChannels('prod', 'Vessel/web-1', NOW + 3_599_999)).toEqual(['T1:COPS']);
  expect(await store.mutedChannels('prod', 'Vessel/web-1', NOW + 3_600_000)).toEqual([]);
  expect(await refusal(watches.mute(asker('USRE', 'COPS'), 'nope', NOW))).toBe(
    'That alert is no longer known.',
  );
  expect(await refusal(watches.mute({ user: 'USRE', channel: 'COPS', team: 'T2' }, 'a1', NOW))).toBe(
    'That alert is no longer known.',
  );
});
