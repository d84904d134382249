/**
 * A gallery scenario: a fresh bot over the demo data, driven only as Slack
 * drives it (slash commands, clicks, modal submissions), recording what the
 * bot drew after each step. Each scenario gets its own bot, so a follow-up of
 * one can never land in another's record.
 */
import { type Clock, ManualClock, systemClock } from '../../../../src/runtime/clock.js';
import type { demoData } from '../../../../src/simulator/demo-data.js';
import { TEST_CHANNEL, type TestUser } from '../../../../src/workspace/identity.js';
import { RESPONSE_URL_METHOD, type StoredMessage } from '../../../../src/workspace/stand-in.js';
import { failVessel } from '../../../watches/sim-control.js';
import { ALICE, type BotHarness, startBotHarness } from '../bot-harness.js';
import {
  answers,
  buttonIds,
  clickEphemeral,
  current,
  openedViewId,
  waitForThreadReply,
} from '../harness-extras.js';
import { ackSurface, type Surface, surfacesOf } from './collect.js';
import type { GalleryEntry } from './markdown.js';

/** What a scenario can do; every action records the step and what the bot drew. */
export interface ScenarioDriver {
  h: BotHarness;
  slash(text: string, user?: TestUser): Promise<void>;
  /**
   * Clicks `actionId` on `message` as it is now, or on the newest channel message offering it,
   * top-level or in a thread (a release's previews and rollbacks are posted in its thread).
   */
  click(actionId: string, user?: TestUser, message?: StoredMessage): Promise<void>;
  /** Clicks `actionId` in the latest ephemeral `user` received. */
  clickEphemeral(actionId: string, user: TestUser, value?: string): Promise<void>;
  /** Submits the last opened modal with `given` (block id -> value) as `user`. */
  submit(given: Record<string, string>, user?: TestUser): Promise<void>;
  /** Waits for a thread reply under the latest channel message matching `pattern`, and records it. */
  threadReply(pattern: RegExp): Promise<void>;
  /** Puts a vessel in Error (`reason`) or starts it again (undefined), in the simulator. */
  failVessel(env: string, vessel: string, reason?: string): Promise<void>;
  /** Lets `ms` of the watch loop's clock pass, ten seconds a tick, and records what it drew. */
  watchFor(ms: number): Promise<void>;
  /** Moves the bot's clock `days` ahead (what it dates and what expires); nothing else waits. */
  daysPass(days: number): void;
  /** Moves the bot's clock `minutes` ahead, then runs a housekeeping pass (the scheduler's too) and records what it drew. */
  minutesPass(minutes: number): Promise<void>;
  /** Records `step` (something done outside Harbormaster, say in the console) and does it. */
  outside(step: string, act: () => Promise<void>): Promise<void>;
  /**
   * Does `act` as the one step `step`, leaving out what the bot drew meanwhile (its follow-ups
   * too): the way to a message whose own drawings other scenarios show.
   */
  setup(step: string, act: () => Promise<void>): Promise<void>;
  /** Waits for the follow-ups running now, and records what they drew. */
  followUps(): Promise<void>;
  /**
   * Moves the bot's clock `ms` ahead, half a minute a housekeeping pass (guards, issue 42), and
   * records what the passes drew.
   */
  housekeepFor(ms: number): Promise<void>;
}

export interface Scenario {
  title: string;
  policy?: string;
  /** Armada status with or without replica counts (default: with). */
  fleetCounts?: boolean;
  /** Changes to the demo world before the simulator starts (an ImageUpdater, a Vessel). */
  world?: (data: ReturnType<typeof demoData>) => void;
  /** ArmadaGameServerStates served (default: not, as the simulator's default). */
  serverStates?: boolean;
  run(d: ScenarioDriver): Promise<void>;
}

// Progress replies depend on how fast the simulated vessel moves; only final follow-ups are kept.
const isProgress = (s: Surface) =>
  s.via === 'chat.postMessage' && /^:hourglass_flowing_sand:/.test(s.text ?? '');

/** The newest message in the test channel, top-level or in a thread, that offers `actionId`. */
function offering(h: BotHarness, actionId: string): StoredMessage {
  const found = h.slack
    .channelMessages(TEST_CHANNEL.id)
    .filter((m) => buttonIds(m).includes(actionId))
    .at(-1);
  if (!found) throw new Error(`no message offers ${actionId}`);
  return found;
}

/** Runs one scenario on a fresh bot and returns its gallery entry. */
export async function runScenario(scenario: Scenario): Promise<GalleryEntry> {
  // The watch loop on its own clock, ticked by watchFor: alerts come in simulated minutes.
  const watchClock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
  // The bot's own clock: real time (follow-ups poll on it), shifted by daysPass.
  let shift = 0;
  const clock: Clock = { now: () => Date.now() + shift, sleep: systemClock.sleep };
  const h = await startBotHarness({
    clock,
    ...(scenario.policy ? { policy: scenario.policy } : {}),
    ...(scenario.fleetCounts !== undefined ? { fleetCounts: scenario.fleetCounts } : {}),
    ...(scenario.world ? { world: scenario.world } : {}),
    ...(scenario.serverStates !== undefined ? { serverStates: scenario.serverStates } : {}),
    watch: { clock: watchClock, manual: true },
    // "Working on it…" would show where an answer took over a second of real time, which the
    // machine's load decides; an hour is never reached (the notice's own tests are in
    // test/slack/listeners/command-replies.test.ts).
    workingNoticeMs: 60 * 60_000,
  });
  const steps: string[] = [];
  const surfaces: Surface[] = [];
  let seen = 0;
  let recording = true;
  const step = (line: string) => {
    if (recording) steps.push(line);
  };
  const take = (ack?: unknown) => {
    // The answer to the person who acted (response_url) and the change message's redraw go out
    // at once, in either order; the person's answer is listed after the channel's, every run.
    const calls = h.slack.calls
      .slice(seen)
      .sort((a, b) => Number(a.method === RESPONSE_URL_METHOD) - Number(b.method === RESPONSE_URL_METHOD));
    seen = h.slack.calls.length;
    if (!recording) return;
    const acked = ack === undefined ? undefined : ackSurface(ack);
    if (acked) surfaces.push(acked);
    surfaces.push(...surfacesOf(calls).filter((s) => !isProgress(s)));
  };
  /**
   * Records a step once the follow-ups it started have drawn too: a follow-up (a rollout
   * followed, a vessel scheduled) edits its change's message after the bot went idle, and
   * would otherwise land in a later step, or after the scenario, as the machine's load decides.
   */
  const done = async (ack?: unknown) => {
    await h.running.bot.followUpsDone();
    take(ack);
  };
  const driver: ScenarioDriver = {
    h,
    async slash(text, user = ALICE) {
      step(`${user.name} types \`/harbor ${text}\``);
      await h.slash(text, user);
      await done();
    },
    async click(actionId, user = ALICE, message) {
      step(`${user.name} clicks \`${actionId}\``);
      await h.click(message ? current(h, message) : offering(h, actionId), actionId, user);
      await done();
    },
    async clickEphemeral(actionId, user, value) {
      step(`${user.name} clicks \`${actionId}\` in their private answer`);
      const ephemeral = h.slack
        .ephemerals()
        .filter((e) => e.user === user.id)
        .at(-1);
      if (!ephemeral) throw new Error(`${user.name} received no private answer`);
      await clickEphemeral(h, ephemeral, actionId, user, value);
      await done();
    },
    async submit(given, user = ALICE) {
      const shownValues = Object.entries(given)
        .map(([k, v]) => `${k} = \`${v}\``)
        .join(', ');
      step(`${user.name} submits the form${shownValues ? ` with ${shownValues}` : ''}`);
      const viewId = openedViewId(h);
      const view = h.slack.view(viewId);
      if (!view) throw new Error(`no view ${viewId}`);
      const res = await h.submit(viewId, answers(view, given), user);
      await done(res.body);
    },
    async threadReply(pattern) {
      const parent = h.slack
        .channelMessages(TEST_CHANNEL.id)
        .filter((m) => !m.threadTs || m.threadTs === m.ts)
        .at(-1);
      if (!parent) throw new Error('no channel message to wait under');
      await waitForThreadReply(h, parent, pattern);
      take();
    },
    async failVessel(env, vessel, reason) {
      step(
        reason ? `vessel \`${vessel}\` in \`${env}\` fails: ${reason}` : `vessel \`${vessel}\` runs again`,
      );
      await failVessel(h.sim, env, vessel, reason);
      // A restart goes Pending, Starting, Running on the simulator's real-time steps (5 ms), and a
      // Vessel out of Running is trouble too: the watch clock moves only once it runs, so the
      // recovery it draws is the same minute every time.
      if (!reason) {
        const started = Date.now();
        while (
          h.sim.state.getVessel(env, vessel)?.status?.state !== 'Running' &&
          Date.now() - started < 5_000
        ) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    },
    async watchFor(ms) {
      step(`${Math.round(ms / 60_000)} min pass`);
      for (let t = 0; t < ms; t += 10_000) {
        await h.running.watcher.tick();
        watchClock.advance(10_000);
      }
      take();
    },
    daysPass(days) {
      step(`${days} ${days === 1 ? 'day passes' : 'days pass'}`);
      shift += days * 86_400_000;
    },
    async minutesPass(minutes) {
      step(`${minutes} min pass; housekeeping and the scheduler run`);
      shift += minutes * 60_000;
      await h.running.core.housekeepNow();
      await done();
    },
    async outside(line, act) {
      step(line);
      await act();
      await done();
    },
    async setup(line, act) {
      step(line);
      recording = false;
      try {
        await act();
        await h.running.bot.followUpsDone();
        take();
      } finally {
        recording = true;
      }
    },
    async followUps() {
      await h.running.bot.followUpsDone();
      take();
    },
    async housekeepFor(ms) {
      step(`${Math.round(ms / 60_000)} min pass`);
      for (let t = 0; t < ms; t += 30_000) {
        shift += 30_000;
        await h.running.core.housekeepNow();
      }
      await done();
    },
  };
  try {
    await scenario.run(driver);
    await done();
  } finally {
    await h.stop();
  }
  return { title: scenario.title, steps, surfaces };
}
