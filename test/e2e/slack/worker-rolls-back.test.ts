/**
 * Issue 39: a worker replica (HARBOR_ROLE=worker) rolls back a change
 * requested and confirmed on the Slack replica, and the Slack replica draws
 * the rollback from the outbox. The change is a guarded rollout (issue 42) of
 * a build that crashes on start; only the worker's housekeeping runs while
 * the guard watches (the Slack replica's lifecycle pass ran once, at its
 * start), so the worker takes the guard, sees the servers not become Ready
 * and rolls the change back automatically; the Slack replica then says so on
 * the change's message and in its thread. On SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { guardRollbackId } from '../../../src/changes/engine/guard-rollback.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { storeKinds } from '../../changes/harness.js';
import { CRASHING_IMAGE, simSend } from '../../watches/sim-control.js';
import { E2E_POLICY } from './bot-harness.js';
import { current, shown } from './harness-extras.js';
import { type BotAndWorker, followUpsOn, startBotAndWorker } from './worker-harness.js';

const GUARD_RULE = `  - name: dev-rollouts
    operations: [armada.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 15m }
`;
/** The e2e policy with dev rollouts guarded for 15 minutes. */
const POLICY = E2E_POLICY.replace('  - name: everything-else\n', `${GUARD_RULE}  - name: everything-else\n`);
const DUEL = '/api/armada/v1/environments/dev/armadas/duel';

describe.each(storeKinds)('a worker replica on %s', (kind) => {
  let r: BotAndWorker | undefined;
  afterEach(async () => {
    await r?.stop();
    r = undefined;
  });

  it('rolls back a guarded rollout confirmed on the Slack replica; the Slack replica draws it', async () => {
    expect(POLICY).toContain('guard: { within: 15m }');
    r = await startBotAndWorker(kind, { policy: POLICY });
    const { bot, worker, clock, logs } = r;
    const { store } = bot.running.core;
    const image = () => bot.sim.state.getArmada('dev', 'duel')?.spec.template.spec.containers[0]?.image;
    const before = image();
    // Duel replaces every unallocated server at once, and game-server:1.0.0 crashes on start.
    await simSend(
      bot.sim,
      'PATCH',
      DUEL,
      { spec: { template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } } },
      'application/merge-patch+json',
    );
    bot.sim.setCrashingImage('dev', CRASHING_IMAGE, 'exit code 1');

    // Requested and confirmed on the Slack replica, which follows its rollout up.
    await bot.slash('armada image dev duel game-server:1.0.0');
    const preview = bot.lastMessage();
    expect(shown(preview)).toContain('Guarded: rolled back automatically');
    await bot.click(preview, CHANGE_ACTIONS.confirm);
    await bot.running.bot.followUpsDone();
    const [change] = await store.listChanges({ status: ['succeeded'], limit: 1 });
    if (!change) throw new Error('the rollout did not apply');
    expect(image()).toBe(CRASHING_IMAGE);
    const seqBefore = await store.lastOutboxSeq();

    // Only the worker's passes, every 30 s of its clock, until its guard ends.
    for (let t = 0; t < 10 && (await store.getGuard(change.id))?.state === 'watching'; t++) {
      await clock.advance(30_000);
      await worker.core.housekeepNow();
    }
    const guard = await store.getGuard(change.id);
    expect(guard).toMatchObject({ state: 'rolled_back', rollbackId: guardRollbackId(change.id) });
    expect(guard?.owner).toMatch(/^worker-1\//);
    // The rollback's own follow-up, on the worker, to its end.
    await followUpsOn(clock, worker.core.engine);
    expect(image()).toBe(before);
    const rollback = await store.getChange(guardRollbackId(change.id));
    expect([rollback?.status, rollback?.requester]).toEqual(['succeeded', 'harbormaster']);
    expect((await store.getChange(change.id))?.rolledBackBy).toBe(guardRollbackId(change.id));
    expect(logs.lines.filter((l) => /"level":"(warn|error)"/.test(l))).toEqual([]);

    // Every event about it was the worker's, heard by nobody there.
    const rows = await store.readOutbox(seqBefore, 200);
    expect(new Set(rows.map((x) => [x.publisher, x.toldHere].join(':')))).toEqual(
      new Set(['worker-1:false']),
    );
    expect(rows.map((x) => (x.payload as { kind: string }).kind)).toContain('guarded');

    // The Slack replica reads the outbox and draws the rollback.
    await bot.running.core.housekeepNow();
    await bot.running.bot.followUpsDone();
    expect(shown(current(bot, preview))).toMatch(/^Rolled back automatically/);
    expect(shown(current(bot, preview))).toContain(
      `Rolled back automatically by its guard (policy rule dev-rollouts), by change \`${guardRollbackId(change.id)}\``,
    );
    const thread = bot.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.thread_ts === preview.ts)
      .map((c) => String(c.body.text ?? ''));
    expect(
      thread.filter((t) => t.includes('Your change was rolled back automatically by its guard')),
    ).toEqual([expect.stringContaining(`*Rollback:* change \`${guardRollbackId(change.id)}\``)]);
  });
});
