/**
 * What a listener's route hands the one listener path (listeners/listen.ts):
 * the ack's body, and the work behind it as data (who, where errors are told,
 * how it is counted) plus the route's own filters. The path composes them
 * behind its own (shed, ack, time, count, report errors); `inSlot` marks
 * where the route's work starts to wait for a bounded slot, so what cannot
 * wait (a trigger id lasts 3 s) goes before it.
 */
import type { Actor, PrivateReply } from '../handlers/actor.js';
import type { Filter } from './compose.js';

/**
 * How the work is counted, as data: the counter and its labels; the outcome
 * is added when the work ends. `errorsOnly`: the flow counts its own outcomes
 * and only a failure of the work is counted here. `errorAs`: the outcome a
 * failure is counted as (a submission is counted as its ack answered).
 */
export type Tally =
  | { counter: 'commands'; command: string }
  | { counter: 'interactions'; action: string; errorsOnly?: true; errorAs?: string };

/** One request's work as the filters see it; a filter may rename it, relabel its tally or set its outcome. */
export interface Job {
  /** Names the task, its error report and logs (`click confirm`, `command vessel.delete`). */
  name: string;
  /** Who acted: their channel's name is learnt for policy rules; the Home tabs redraw after. */
  actor?: Actor;
  /** Answers the acting user privately; errors are told here. Without it errors are logged and counted. */
  reply?: PrivateReply;
  /** Counted when the work ends; none: not counted. */
  tally?: Tally;
  /** What is counted: `ok` unless a filter says otherwise (`error` when the work throws). */
  outcome: string;
  /** Runs `work` in one of the bounded slots (see `inSlot`). */
  slot(work: () => Promise<void>): Promise<void>;
}

/** A filter of a job. */
export type Step = Filter<Job>;

/** The work behind one ack: its data and its filters, in order. */
export interface Work {
  name: string;
  actor?: Actor;
  reply?: PrivateReply;
  tally?: Tally;
  steps: readonly Step[];
}

/** What a listener's router returns: the ack's body, if any, and the work to run after it. */
export interface Routed {
  /** A view submission's answer (field errors or the next view); nothing for commands and clicks. */
  ack?: object;
  /** Built after the ack (so even building it never delays one); undefined when there is nothing to do. */
  work?: () => Work | undefined;
}

/** From here on the job waits for a bounded slot: a burst cannot starve later acks. */
export const inSlot: Step = (job, next) => job.slot(next);

/** The job's last filter: runs `fn`; an outcome it returns is counted instead of `ok`. */
export function run(fn: (job: Job) => Promise<unknown>): Step {
  return async (job) => {
    const outcome = await fn(job);
    if (typeof outcome === 'string') job.outcome = outcome;
  };
}

/** Runs the work in a slot and counts `ok` or what `fn` returned: the usual shape of a click. */
export function slotted(fn: (job: Job) => Promise<unknown>): readonly Step[] {
  return [inSlot, run(fn)];
}

/** Runs `fn` at once, before the job's later filters (what cannot wait for a slot: a trigger id lasts 3 s). */
export function before(fn: (job: Job) => Promise<void>): Step {
  return async (job, next) => {
    await fn(job);
    await next();
  };
}

/** Runs `fn` after the job's later filters, whatever their outcome (a "Working on it…" note removed). */
export function always(fn: () => Promise<void>): Step {
  return async (_job, next) => {
    try {
      await next();
    } finally {
      await fn();
    }
  };
}
