/**
 * One tail's loop (TailRunner) on a ManualClock, with the real LineRing,
 * tail view and MessageBudget, Slack's drawing, and fakes for the log source
 * and Slack.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import type { SlackMessage } from '../../src/slack/render/message.js';
import { slackTailDrawing } from '../../src/slack/tails/drawing.js';
import { MessageBudget } from '../../src/slack-budget/budget.js';
import { tailPacer } from '../../src/slack-budget/tail-pacer.js';
import { initialProgress, type TailProgress } from '../../src/tails/progress.js';
import { TailRunner } from '../../src/tails/runner.js';
import type { TailRunnerOptions } from '../../src/tails/runner-options.js';
import type { TailLimits } from '../../src/tails/service-options.js';
import { releaseEnded, stopByUser, type TailStopReason } from '../../src/tails/stop-reason.js';
import { FakeLogSource, FakeSlack, untilIdle } from '../slack/tails/fakes.js';

const LIMITS: TailLimits = {
  maxDurationMs: 2 * 60 * 60_000,
  backoff: { initialMs: 1000, maxMs: 4000 },
  initialTailLines: 20,
  ring: { maxLines: 2000, maxChars: 256 * 1024 },
  maxMessages: 10,
};

interface Setup {
  runner: TailRunner<SlackMessage>;
  clock: ManualClock;
  slack: FakeSlack;
  source: FakeLogSource;
  budget: MessageBudget;
  saved: TailProgress[];
  finished: Array<{ progress: TailProgress; reason: TailStopReason }>;
  firstTs: string;
}

const runners: TailRunner<SlackMessage>[] = [];

/**
 * Until the tail has read every emitted line and its refresher is parked (on
 * news or on the budget): on these in-memory fakes and a ManualClock, that is
 * once nothing is left to run (untilIdle); lines still unread then never will be.
 */
async function drained(s: Setup): Promise<void> {
  await untilIdle();
  if (s.source.pending !== 0) throw new Error(`the tail left ${s.source.pending} line(s) unread`);
}
afterEach(async () => {
  for (const r of runners.splice(0)) r.detach();
});

async function setup(
  overrides: Partial<Omit<TailRunnerOptions<SlackMessage>, 'clock' | 'budget' | 'messenger'>> & {
    slack?: FakeSlack;
  } = {},
  progress?: TailProgress,
  clock = new ManualClock(),
): Promise<Setup> {
  const { slack: givenSlack, ...rest } = overrides;
  const slack = givenSlack ?? new FakeSlack();
  const source = new FakeLogSource();
  const budget = new MessageBudget({ clock });
  const firstTs = await slack.post('C1', '1700000000.000000', { text: 'first', blocks: [] });
  const saved: TailProgress[] = [];
  const finished: Setup['finished'] = [];
  const runner = new TailRunner({
    target: {
      id: 'tail-1',
      channel: 'C1',
      threadTs: '1700000000.000000',
      env: 'dev',
      vessel: 'lobby-1',
      startedAt: clock.now(),
    },
    replicaId: 'replica-a',
    progress: progress ?? initialProgress('replica-a', firstTs),
    source,
    messenger: slack,
    drawing: slackTailDrawing,
    logger: silentLogger,
    limits: LIMITS,
    random: () => 1,
    save: async (p) => {
      saved.push(p);
    },
    finish: async (p, reason) => {
      finished.push({ progress: p, reason });
    },
    ...rest,
    clock,
    budget: tailPacer(budget),
  });
  runners.push(runner);
  await source.whenOpen();
  return { runner, clock, slack, source, budget, saved, finished, firstTs };
}

/** Moves the clock a second at a time until the runner ends (its last writes wait for budget slots). */
async function ended(s: Setup): Promise<string> {
  let end: string | undefined;
  void s.runner.done.then((e) => {
    end = e;
  });
  for (let i = 0; i < 120 && end === undefined; i++) {
    await drained(s);
    if (end === undefined) await s.clock.advance(1000);
  }
  if (end === undefined) throw new Error('the runner did not end');
  return end;
}

describe('TailRunner', () => {
  it('edits the tail message with new lines and counts, escaped, through the budget', async () => {
    const s = await setup();
    s.source.emit(['player <alice> joined & ready', 'second line']);
    await drained(s);
    const shown = s.slack.shown(s.firstTs);
    expect(shown).toContain('player &lt;alice&gt; joined &amp; ready');
    expect(shown).toContain('live · 2 lines seen · 0 not shown');
    expect(shown).toContain('tail.stop');
    expect(s.saved.at(-1)).toMatchObject({
      owner: 'replica-a',
      messageTs: s.firstTs,
      seen: 2,
      neverShown: 0,
    });
    expect(s.budget.stats().grantedByMethod['chat.update']).toBe(s.slack.ok('chat.update').length);
    expect(s.source.asked).toEqual([20]);
  });

  it('paces refreshes by the budget: after the burst, one update per slot carrying every line', async () => {
    const s = await setup();
    for (let i = 0; i < 50; i++) s.source.emit([`steady ${i}`]);
    await drained(s);
    // The burst (3) went at once; the rest waits for the next slot, 60 s / 45 later.
    expect(s.slack.ok('chat.update')).toHaveLength(3);
    expect(s.budget.stats().waiting['chat.update']).toBe(1);
    await s.clock.advance(Math.ceil(60_000 / 45) - 1);
    expect(s.slack.ok('chat.update')).toHaveLength(3);
    await s.clock.advance(1);
    await drained(s);
    expect(s.slack.ok('chat.update')).toHaveLength(4);
    expect(s.slack.shown(s.firstTs)).toContain('steady 49');
    expect(s.slack.shown(s.firstTs)).toContain('50 lines seen · 0 not shown');
  });

  it('retries a rate-limited refresh after Retry-After without losing lines, and pauses the method for all', async () => {
    const s = await setup();
    s.slack.rateLimitNext('chat.update', 5000);
    s.source.emit(['kept-1']);
    await drained(s); // the 429, and the runner's answer to it
    expect(s.slack.calls.some((c) => c.outcome === 'rate_limited')).toBe(true);
    expect(s.budget.stats().pausedUntil['chat.update']).toBe(s.clock.now() + 5000);
    s.source.emit(['kept-2']);
    await s.clock.advance(4999);
    expect(s.slack.ok('chat.update')).toHaveLength(0);
    await s.clock.advance(1);
    await s.slack.whenCall((c) => c.method === 'chat.update' && c.outcome === 'ok'); // the retried update
    expect(s.slack.ok('chat.update')).toHaveLength(1);
    const shown = s.slack.shown(s.firstTs);
    expect(shown).toContain('kept-1');
    expect(shown).toContain('kept-2');
    expect(shown).toContain('2 lines seen · 0 not shown');
  });

  it('rolls over to a new message in the thread and freezes the full one without its Stop button', async () => {
    const s = await setup();
    const long = (i: number) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(90)}`;
    // One message holds about 29 such lines; the first refresh fills it, the next overflows it.
    s.source.emit(Array.from({ length: 29 }, (_, i) => long(i)));
    await drained(s);
    await s.clock.advance(60_000);
    await drained(s);
    expect(s.slack.shown(s.firstTs)).toContain('line 0028');
    s.source.emit(Array.from({ length: 10 }, (_, i) => long(100 + i)));
    await drained(s);
    await s.clock.advance(60_000);
    await drained(s);
    expect(s.slack.ok('chat.postMessage')).toHaveLength(2);
    const next = s.slack.ok('chat.postMessage')[1];
    expect(next?.threadTs).toBe('1700000000.000000');
    const frozen = s.slack.shown(s.firstTs);
    expect(frozen).toContain('part 1 · continued below');
    expect(frozen).not.toContain('tail.stop');
    expect(frozen).toContain('line 0028');
    const live = s.slack.shown(next?.ts ?? '');
    expect(live).toContain('line 0109');
    expect(live).not.toContain('line 0028');
    expect(live).toContain('tail.stop');
    expect(s.saved.at(-1)).toMatchObject({ messageTs: next?.ts, part: 1 });
  });

  it('scrolls instead of rolling over while lines come faster than messages can show them', async () => {
    const s = await setup();
    const long = (i: number) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(90)}`;
    s.source.emit(Array.from({ length: 29 }, (_, i) => long(i)));
    await drained(s);
    await s.clock.advance(60_000);
    await drained(s);
    // Use up the burst, so the next lines all arrive while the refresher waits for its slot.
    while (s.budget.stats().waiting['chat.update'] === 0) {
      s.source.emit(['pad']);
      await drained(s);
    }
    // Three messages' worth at once: a new message would show only the newest third of them.
    s.source.emit(Array.from({ length: 90 }, (_, i) => long(100 + i)));
    await drained(s);
    await s.clock.advance(60_000);
    await drained(s);
    expect(s.slack.ok('chat.postMessage')).toHaveLength(1); // only the setup's first message
    const shown = s.slack.shown(s.firstTs);
    expect(shown).toContain('line 0189');
    expect(shown).not.toContain('line 0028');
    expect(shown).toMatch(/1\d\d lines seen · [1-9]\d* not shown/);
  });

  it('shows a gap marker when the stream drops, reconnects after the backoff and goes on', async () => {
    const s = await setup();
    s.source.emit(['before']);
    await drained(s);
    s.source.cut();
    await drained(s);
    expect(s.slack.shown(s.firstTs)).toMatch(
      /log stream dropped \(the hosting API could not be reached.*reconnecting in 1 s/,
    );
    await s.clock.advance(1000);
    await s.source.whenOpen(); // the reconnect
    expect(s.source.asked).toEqual([20, 0]);
    s.source.emit(['after']);
    // Held after a reconnect until the replay wait ends (src/tails/replay-filter.ts), then shown.
    await drained(s);
    await s.clock.advance(2000);
    await drained(s);
    expect(s.slack.shown(s.firstTs)).toContain('after'); // the line after the gap
    expect(s.slack.shown(s.firstTs)).toContain('log stream reconnected');
    expect(s.slack.shown(s.firstTs)).toContain('2 lines seen');
  });

  it('on Stop writes the final state: who stopped it, the last lines, seen and never shown; no button', async () => {
    const s = await setup();
    s.source.emit(['one', 'two']);
    await drained(s);
    s.source.emit(['three']);
    await drained(s);
    s.runner.stop(stopByUser('U0BOB'));
    await expect(ended(s)).resolves.toBe('stopped');
    const final = s.slack.shown(s.firstTs);
    expect(final).toContain('stopped by <@U0BOB> · 3 lines seen · 0 never shown');
    expect(final).toContain('three');
    expect(final).not.toContain('tail.stop');
    expect(s.finished).toEqual([
      {
        progress: expect.objectContaining({ seen: 3, neverShown: 0, ended: expect.anything() }),
        reason: { kind: 'stopped', by: 'U0BOB' },
      },
    ]);
    expect(s.source.open).toBe(false);
  });

  it('counts lines pushed out of the ring before any refresh as never shown', async () => {
    const s = await setup({ limits: { ...LIMITS, ring: { maxLines: 10, maxChars: 10_000 } } });
    // Three lines use the budget's burst; the next 25 wait for a slot in a ring of 10.
    for (const w of ['w0', 'w1', 'w2']) {
      s.source.emit([w]);
      await drained(s);
    }
    expect(s.slack.ok('chat.update')).toHaveLength(3);
    s.source.emit(Array.from({ length: 25 }, (_, i) => `l${i}`));
    await drained(s);
    s.runner.stop(releaseEnded('rel-1'));
    await ended(s);
    const final = s.slack.shown(s.firstTs);
    expect(final).toContain('stopped: the release ended · 28 lines seen · 15 never shown');
    expect(final).toContain('l15');
    expect(final).toContain('l24');
    expect(final).not.toContain('l14\\n');
  });

  it('stops when the Vessel is deleted and says so', async () => {
    const s = await setup();
    s.source.emit(['last words']);
    s.source.deleteVessel();
    await expect(s.runner.done).resolves.toBe('stopped');
    expect(s.slack.shown(s.firstTs)).toContain('stopped: the Vessel was deleted · 1 line seen');
    expect(s.finished[0]?.reason).toEqual({ kind: 'vessel_deleted' });
  });

  it('stops after the maximum duration counted from the start, also for a resumed tail', async () => {
    const clock = new ManualClock();
    const startedAt = clock.now() - 90 * 60_000; // started 1.5 h ago, on another replica
    const s = await setup(
      { target: { id: 'tail-1', channel: 'C1', env: 'dev', vessel: 'lobby-1', startedAt } },
      undefined,
      clock,
    );
    await s.clock.advance(30 * 60_000 - 1);
    expect(s.finished).toHaveLength(0);
    await s.clock.advance(1);
    await s.runner.done;
    expect(s.finished[0]?.reason).toEqual({ kind: 'max_duration', afterMs: 2 * 60 * 60_000 });
    expect(s.slack.shown(s.firstTs)).toContain('stopped after the maximum duration (2 h)');
  });

  it('detach leaves the tail as it is: no final message, no finish', async () => {
    const s = await setup();
    s.source.emit(['x']);
    await drained(s);
    s.runner.detach();
    await expect(s.runner.done).resolves.toBe('detached');
    expect(s.finished).toEqual([]);
    expect(s.slack.shown(s.firstTs)).toContain('tail.stop');
  });

  it('a resumed tail keeps editing its message with the lines it showed, a marker, and carried-on counts', async () => {
    const progress: TailProgress = {
      owner: 'replica-dead',
      messageTs: '',
      part: 0,
      window: [{ text: 'shown by the old owner', marker: false }],
      seen: 40,
      neverShown: 7,
    };
    const slack = new FakeSlack();
    const ts = await slack.post('C1', undefined, { text: 'old', blocks: [] });
    const s = await setup({ slack, takenOverBy: 'replica-b' }, { ...progress, messageTs: ts });
    await drained(s);
    expect(s.slack.ok('chat.update')).toHaveLength(1);
    expect(s.source.asked).toEqual([0]);
    s.source.emit(['new line']);
    await drained(s);
    const shown = s.slack.shown(ts);
    expect(shown).toContain('shown by the old owner');
    expect(shown).toContain('resumed by replica replica-b; lines written while no replica followed are lost');
    expect(shown).toContain('41 lines seen · 7 not shown');
  });

  it('a failed Slack call is retried with backoff, the lines kept', async () => {
    const s = await setup();
    s.slack.failNext('chat.update');
    s.source.emit(['survives']);
    await drained(s); // the failure, and the runner parked on its retry backoff
    expect(s.slack.calls.some((c) => c.outcome === 'failed')).toBe(true);
    await s.clock.advance(1000);
    await s.slack.whenCall((c) => c.method === 'chat.update' && c.outcome === 'ok'); // the retry
    expect(s.slack.ok('chat.update')).toHaveLength(1);
    expect(s.slack.shown(s.firstTs)).toContain('survives');
  });
});
