/**
 * What a tail keeps in its store record (`TailRecord.state`), so any replica
 * can stop it or carry it on: who owns it, which message it is editing and
 * what that message shows, the running counts, and a stop asked for by a
 * replica that does not own it. Read defensively: the store holds opaque JSON.
 */
import type { TailStopReason } from './stop-reason.js';

/** A stop asked for by a replica that does not run the tail; the owner honours it on its next renewal. */
export type StopRequest =
  | { kind: 'stopped'; by: string; at: number }
  | { kind: 'release_ended'; release?: string; at: number };

/** One line the current message shows (a marker is a gap or takeover note, not a log line). */
export interface ShownLine {
  text: string;
  marker: boolean;
}

export interface TailProgress {
  /** Replica id of the owner when this was written. */
  owner: string;
  /** The message the tail edits now (the last part after rollovers). */
  messageTs: string;
  /** 0-based number of that message among the tail's parts. */
  part: number;
  /** What that message shows, oldest first. */
  window: ShownLine[];
  /** Log lines read over the tail's whole life (every owner). */
  seen: number;
  /** Of those, lines no message ever showed. */
  neverShown: number;
  stopRequest?: StopRequest;
  /** The top-level "Tailing …" message this tail posted (none in a thread it did not start); redrawn when it stops. */
  parentTs?: string;
  /** Set once the final message is written. */
  ended?: { reason: TailStopReason; at: number };
}

/** The progress of a tail that has just posted its first message (and, when it started its own thread, its parent). */
export function initialProgress(owner: string, messageTs: string, parentTs?: string): TailProgress {
  return { owner, messageTs, part: 0, window: [], seen: 0, neverShown: 0, ...(parentTs ? { parentTs } : {}) };
}

/** The thread parent a tail posted itself, as its stored state says. */
export function parentOf(state: unknown): string | undefined {
  const parentTs =
    state && typeof state === 'object' ? (state as { parentTs?: unknown }).parentTs : undefined;
  return typeof parentTs === 'string' && parentTs ? parentTs : undefined;
}

/** Reads `state` back; undefined when it is not a tail's progress (then the tail cannot be resumed). */
export function readProgress(state: unknown): TailProgress | undefined {
  if (!state || typeof state !== 'object') return undefined;
  const s = state as Record<string, unknown>;
  if (typeof s.owner !== 'string' || typeof s.messageTs !== 'string') return undefined;
  const window = Array.isArray(s.window)
    ? s.window
        .filter((l): l is Record<string, unknown> => !!l && typeof l === 'object')
        .map((l) => ({ text: String(l.text ?? ''), marker: l.marker === true }))
    : [];
  return {
    owner: s.owner,
    messageTs: s.messageTs,
    part: count(s.part),
    window,
    seen: count(s.seen),
    neverShown: count(s.neverShown),
    ...(readStopRequest(s.stopRequest) ? { stopRequest: readStopRequest(s.stopRequest) } : {}),
    ...(parentOf(s) ? { parentTs: parentOf(s) } : {}),
    ...(s.ended && typeof s.ended === 'object' ? { ended: s.ended as TailProgress['ended'] } : {}),
  };
}

/** The stop request in a record's state, if any (readable even when the rest is not). */
function readStopRequest(value: unknown): StopRequest | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  const at = typeof r.at === 'number' ? r.at : 0;
  if (r.kind === 'stopped' && typeof r.by === 'string') return { kind: 'stopped', by: r.by, at };
  if (r.kind === 'release_ended')
    return typeof r.release === 'string'
      ? { kind: 'release_ended', release: r.release, at }
      : { kind: 'release_ended', at };
  return undefined;
}

/** The stop request held in a record's state. */
export function stopRequestOf(state: unknown): StopRequest | undefined {
  return state && typeof state === 'object'
    ? readStopRequest((state as { stopRequest?: unknown }).stopRequest)
    : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}
