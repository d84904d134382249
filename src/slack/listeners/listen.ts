/**
 * The one path every Bolt listener takes. A listener only routes: from the
 * payload it says what Slack's ack carries (view submissions) and, behind
 * the ack, which job to run. This file does the rest once for all of them:
 * ack first and time it; learn the channel's name; run the job as a tracked
 * task that starts only after the ack is written, with its slow part in a
 * bounded slot so a burst cannot starve later acks; time it, count its
 * outcome, and tell the acting user about any error. Past the backlog's
 * bound a request is not queued at all: the user hears "busy" at once.
 */
import { UserError } from '../../errors/user-error.js';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import { reportError } from '../handlers/report-error.js';
import type { Backlog } from '../runtime/backlog.js';
import type { Slots } from '../runtime/slots.js';
import { BUSY_TEXT, busyAck } from './busy.js';

/** Which kind of request, for the ack and handling timers. */
export type Surface = 'command' | 'click' | 'submit';

/** The work behind one ack. */
interface Job {
  /** Names the task, its timer and error report (`click confirm`); `run` may rename it once it knows more. */
  name: string;
  /** Who acted; their channel's name is learnt for policy rules that name channels. */
  actor?: Actor;
  /** Answers the acting user privately; errors are told here. Without it errors are logged and counted. */
  reply?: PrivateReply;
  /** What cannot wait for a slot (a trigger id expires 3 s after the click); may rename the job. */
  now?(job: JobHandle): Promise<void>;
  /** The work, in a slot; returns the outcome to count (default `ok`). */
  run(job: JobHandle): Promise<string | undefined>;
  /** Counts an outcome (`ok`, `error` or what `run` returned) under the job's name. */
  count(outcome: string, name: string): void;
  /** After the work, whatever its outcome (a command removes a "Working on it…" no answer replaced). */
  done?(): Promise<void>;
}

/** Lets a job rename itself (a command knows its name once parsed). */
interface JobHandle {
  name: string;
}

/** What a listener's router returns: the ack's body, if any, and the job to run after it. */
export interface Routed {
  /** A view submission's answer (field errors or the next view); nothing for commands and clicks. */
  ack?: object;
  /** Built after the ack (so even building it never delays one); undefined when there is nothing to do. */
  job?: () => Job | undefined;
}

/**
 * Bolt's ack, whatever the payload: commands and clicks take no body, view
 * submissions an optional response action. Bolt types it as a union of
 * functions, one per payload, each taking its own body; declared as a method,
 * `ack` accepts that union (method parameters compare both ways), and the
 * router's `Routed.ack` says which body goes with which surface.
 */
interface Acked {
  ack(body?: unknown): Promise<void>;
  /** Commands and clicks: posts to the payload's response URL (a refused click hears "busy" here). */
  respond?(message: { response_type: 'ephemeral'; replace_original: false; text: string }): Promise<unknown>;
  /** Submissions: the submitted view (a refusal marks its first input). */
  view?: { blocks?: readonly unknown[] };
}

/** "Busy" notes to clicks posted at once at most; past it a refused click is only counted (a note is a request too). */
const MAX_BUSY_NOTES = 32;

/** Builds Bolt listeners on one BotContext and one set of slots. */
export type Listen = <A extends object>(
  surface: Surface,
  route: (args: A) => Routed,
) => (args: A & Acked) => Promise<void>;

/**
 * The listener factory every listener file uses; `acted` hears of every job
 * with an actor once it has run, whatever its outcome (the Home tabs redraw).
 */
export function createListen(
  ctx: BotContext,
  slots: Slots,
  backlog: Backlog,
  acted?: (actor: Actor) => void,
): Listen {
  let busyNotes = 0;
  return (surface, route) => async (args) => {
    const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: surface });
    const giveBack = backlog.take();
    if (!giveBack) {
      // Refused before routing: nothing of the payload is kept, whatever the flood.
      await args.ack(busyAck(surface, args.view));
      stopAck();
      ctx.metrics.shed.inc({ kind: surface });
      if (surface === 'click' && args.respond && busyNotes < MAX_BUSY_NOTES) {
        busyNotes += 1;
        await args
          .respond({ response_type: 'ephemeral', replace_original: false, text: BUSY_TEXT })
          .catch((error: unknown) => ctx.logger.warn('could not send a "busy" note', { error }))
          .finally(() => {
            busyNotes -= 1;
          });
      }
      return;
    }
    let routed: Routed;
    try {
      routed = route(args);
    } catch (err) {
      giveBack();
      throw err;
    }
    const build = routed.job;
    try {
      await args.ack(routed.ack);
    } catch (err) {
      giveBack();
      throw err;
    } finally {
      stopAck();
    }
    if (!build) {
      giveBack();
      return;
    }
    void ctx.tasks
      .run(`${surface} work`, async () => {
        const job = build();
        if (!job) return;
        await runJob(ctx, slots, surface, job);
        if (job.actor) acted?.(job.actor);
      })
      .finally(giveBack);
  };
}

async function runJob(ctx: BotContext, slots: Slots, surface: Surface, job: Job): Promise<void> {
  const handle: JobHandle = { name: job.name };
  const stopHandle = ctx.metrics.handleSeconds.startTimer({ kind: surface });
  try {
    await job.now?.(handle);
    const outcome = await slots.use(() => job.run(handle));
    job.count(outcome ?? 'ok', handle.name);
  } catch (err) {
    // A UserError is an answer (refused, not found, stale...), counted under its kind; only faults are errors.
    const userError = err instanceof UserError;
    job.count(userError ? err.kind : 'error', handle.name);
    if (job.reply) await reportError(ctx, job.reply, err, handle.name);
    else {
      if (!userError) ctx.metrics.errors.inc({ where: handle.name });
      ctx.logger.warn(`${handle.name} failed`, { error: err });
    }
  } finally {
    stopHandle();
    await job
      .done?.()
      .catch((error: unknown) => ctx.logger.warn(`${handle.name}: clean-up failed`, { error }));
  }
}
