/**
 * What a Slack call is for, as its caller says it to the gateway
 * (gateway.ts). The gateway orders and paces by it: a person waiting goes
 * first and never queues behind paced background calls; a change message
 * reaching its outcome goes before other messages' in-between redraws.
 */
import type { SlotClass } from '../../slack-budget/shared-slots.js';

export type Purpose =
  /** A person is waiting: a modal, an ephemeral or response_url answer, the preview they just asked for. */
  | 'person'
  /** A change message reaching a final state, or a new state someone can act on. */
  | 'outcome'
  /** A change message's in-between redraw ("Applying…"), a follow-up's progress, a release thread's redraw. */
  | 'progress'
  /** A live log tail's post or redraw (paced by the tails' fair queue). */
  | 'tail'
  /** A Home tab redraw (views.publish, paced by its own gate). */
  | 'home'
  /** A watch alert's post or redraw. */
  | 'alert';

/** The purposes the gateway's message queue orders (tails have their own fair queue, Home tabs a gate). */
export type QueuedPurpose = Exclude<Purpose, 'tail' | 'home'>;

/** Lower goes first when slots are short. */
export const RANK: Record<QueuedPurpose, number> = { person: 0, outcome: 1, progress: 2, alert: 3 };

/**
 * Which class of the workspace's shared slots a purpose draws from: the bot's own messages may go
 * deeper into the burst than background redraws (shared-slots.ts), alerts go with the tails.
 */
export const SLOT_CLASS: Record<QueuedPurpose, SlotClass> = {
  person: 'person',
  outcome: 'person',
  progress: 'person',
  alert: 'tail',
};

/** The methods Slack paces per workspace (and per channel for posts) that the gateway queues. */
export const PACED_METHODS = ['chat.postMessage', 'chat.update'] as const;
export type PacedMethod = (typeof PACED_METHODS)[number];

export function isPaced(method: string): method is PacedMethod {
  return (PACED_METHODS as readonly string[]).includes(method);
}
