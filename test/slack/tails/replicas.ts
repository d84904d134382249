/**
 * Several whole bots (replicas) on one store, one hosting API simulator and
 * one Slack stand-in, all on one tail clock: what issue 22.1 is about (three
 * replicas each pacing its tails as if alone overran Slack). The stand-in
 * enforces Slack's limits on that clock; the clock moves only while no tail
 * call of any replica is under way, so call times are exact. Used by
 * test/e2e/slack/tails-replicas.test.ts and bench/tails-replicas.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedCall } from '../../../src/workspace/stand-in.js';
import {
  startTailBot,
  startTailWorld,
  type TailBot,
  type TailBotOptions,
  type TailBotShared,
  turn,
} from './e2e-bot.js';

/** Slack's Tier 3: chat.update calls a minute for the whole workspace. */
export const TIER3_PER_MINUTE = 50;

/** Where the replicas keep their records: a SQLite file they share, or a PostgreSQL URL. */
export type ReplicaStore = { kind: 'sqlite' } | { kind: 'postgres'; databaseUrl: string };

export interface TailReplicas extends TailBotShared {
  bots: TailBot[];
  /** Resolves once no tail call of any replica is under way. */
  quiesce(): Promise<void>;
  /** Pumps the shared clock (steps of `stepMs`, I/O in between) until `cond` holds. */
  pumpUntil(cond: () => boolean | Promise<boolean>, what: string, stepMs?: number): Promise<void>;
  /**
   * Waits until `bot` has finished the work its requests started (tails excluded), and `until` holds
   * (what the bot does from its own clock, a follow-up); the clock moves only while that work waits on it for a slot.
   */
  settle(bot: TailBot, until?: () => boolean): Promise<void>;
  /** `logs dev <vessel> --follow` for each vessel, sent to the replicas in turn; resolves once all stream. */
  followRoundRobin(vessels: readonly string[]): Promise<void>;
  /** `ms` of the clock in steps of `stepMs`, each vessel writing `perStep` lines a step. */
  firehose(vessels: readonly string[], ms: number, o?: { stepMs?: number; perStep?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the world and `replicas` bots on it, Slack's limits enforced (Tier 3 for chat.update, 1 post a second a channel, bursts of 2). */
export async function startTailReplicas(o: {
  replicas: number;
  store: ReplicaStore;
  extraVessels: number;
  /** More tail settings for every replica (bench/tails-replicas.ts --alone). */
  tails?: TailBotOptions['tails'];
}): Promise<TailReplicas> {
  const world = await startTailWorld({ extraVessels: o.extraVessels });
  // Posts: one a second a channel, with the short bursts Slack allows (a person's preview may follow a tail's post).
  world.slack.enforceLimits({
    chatUpdatePerMinute: TIER3_PER_MINUTE,
    postMessagePerChannelPerSecond: 1,
    postMessageBurstSeconds: 2,
  });
  const dir = o.store.kind === 'sqlite' ? await mkdtemp(join(tmpdir(), 'harbor-replicas-')) : undefined;
  const bots: TailBot[] = [];
  for (let i = 0; i < o.replicas; i++) {
    bots.push(
      await startTailBot({
        shared: world,
        replicaId: `replica-${i + 1}`,
        ...(dir ? { dataDir: dir } : {}),
        ...(o.store.kind === 'postgres' ? { databaseUrl: o.store.databaseUrl } : {}),
        // Leases are not what this is about: long enough that a replica never loses a tail while
        // the clock runs ahead of a database round trip (tails-takeover.test.ts covers takeovers).
        tails: { leaseTtlMs: 10 * 60_000, renewMs: 60_000, scanMs: 60_000, ...o.tails },
      }),
    );
  }
  const quiesce = async () => {
    while (bots.some((b) => b.busy())) await Promise.all(bots.map((b) => b.quiesce()));
  };
  // Every replica settles after each sleeper the clock wakes, at that sleeper's time: what a slot
  // drawn from the store or a call to Slack answers lands then, whatever the machine's load.
  const step = (ms: number) => world.clock.advance(ms, quiesce);
  const pumpUntil = async (cond: () => boolean | Promise<boolean>, what: string, stepMs = 250) => {
    for (let n = 0; n < 4000; n++) {
      for (let i = 0; i < 20; i++) {
        if (await cond()) return;
        await turn();
      }
      await quiesce();
      if (await cond()) return;
      await step(stepMs);
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const settle = async (bot: TailBot, o: { parked?: () => boolean; until?: () => boolean } = {}) => {
    const parked = o.parked ?? (() => bot.running.slackBudget.waiting() > 0);
    let idle = false;
    void bot.running.bot.idle().then(() => {
      idle = true;
    });
    const finished = () => idle && (o.until?.() ?? true);
    for (let n = 0; n < 4000; n++) {
      // The request's work runs in real time (the simulator, the store, Slack): the clock moves only
      // while it waits on the clock for a slot, so it does the same at the same times however slow
      // the machine is (moving the clock meanwhile let a loaded run start it seconds later).
      while (!finished() && !parked()) await turn();
      await quiesce();
      if (finished()) return;
      await step(250);
    }
    throw new Error('timed out waiting for a replica to finish its requests');
  };
  return {
    ...world,
    bots,
    quiesce,
    pumpUntil,
    settle: (bot, until) => settle(bot, until ? { until } : {}),
    followRoundRobin: async (vessels) => {
      for (const [i, vessel] of vessels.entries()) {
        const bot = bots[i % bots.length] as TailBot;
        const ack = await bot.slash(`logs dev ${vessel} --follow`);
        if (ack.status !== 200) throw new Error(`/harbor logs dev ${vessel} --follow answered ${ack.status}`);
        // Starting a tail posts through the tails' budget: with no lines yet, whatever waits there is this start.
        await settle(bot, {
          parked: () => bot.running.tails.budgetSnapshots().some((b) => sumOf(b.waiting) > 0),
        });
      }
      await world.sim.whenLogStreams(vessels.length);
    },
    firehose: async (vessels, ms, f = {}) => {
      const stepMs = f.stepMs ?? 250;
      const perStep = f.perStep ?? 2;
      const start = world.clock.now();
      for (let t = 0; t < ms; t += stepMs) {
        for (const vessel of vessels) {
          world.sim.emitLogLines(
            'dev',
            vessel,
            Array.from({ length: perStep }, (_, i) => `${vessel} t=${start + t} #${i}`),
          );
        }
        // The lines cross real sockets to reach the tails; give them a few turns before time moves.
        for (let i = 0; i < 10; i++) await turn();
        await quiesce();
        await step(stepMs);
      }
      await quiesce();
    },
    stop: async () => {
      for (const bot of bots) await bot.stop();
      await world.slack.stop();
      await world.sim.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

function sumOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Most calls answered 200 inside any one minute of the clock, of `method`, from `from` on. */
export function busiestMinute(calls: readonly RecordedCall[], method: string, from = 0): number {
  const times = calls.filter((c) => c.method === method && c.status === 200 && c.at >= from).map((c) => c.at);
  let best = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (j < times.length && (times[j] as number) <= (times[i] as number) + 59_999) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

/** chat.update calls answered 200 to each tail's messages from `from` on, by tail id. */
export function updatesByTail(
  calls: readonly RecordedCall[],
  tails: readonly { id: string; threadTs?: string }[],
  from = 0,
): Map<string, number> {
  const byThread = new Map(tails.map((t) => [t.threadTs ?? '', t.id]));
  const tailOfMessage = new Map<string, string>();
  const counts = new Map<string, number>(tails.map((t) => [t.id, 0]));
  for (const call of calls) {
    if (call.status !== 200) continue;
    if (call.method === 'chat.postMessage') {
      const tail = byThread.get(String(call.body.thread_ts ?? ''));
      const ts = String((call.response as { ts?: string }).ts ?? '');
      if (tail) tailOfMessage.set(ts, tail);
    } else if (call.method === 'chat.update' && call.at >= from) {
      const tail = tailOfMessage.get(String(call.body.ts ?? ''));
      if (tail) counts.set(tail, (counts.get(tail) ?? 0) + 1);
    }
  }
  return counts;
}
