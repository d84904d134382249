/**
 * The Vessel lifecycle, computed lazily from the injected clock: a record
 * stores when it (re)started and when it was deleted; its state at any moment
 * follows from those times, so a ManualClock drives it deterministically.
 */
import type { Vessel, VesselState } from '../api-shapes/resources.js';
import type { ImageLookup } from './containers.js';
import { deepClone } from './json.js';
import type { LogBuffer } from './log-lines.js';

/** Pending -> Scheduled -> Created -> Starting -> Running, one step each. */
const START_SEQUENCE: readonly VesselState[] = ['Pending', 'Scheduled', 'Created', 'Starting', 'Running'];

/**
 * How long a Vessel may stay Starting before the platform reschedules it to
 * another Site (docs `multiplayer-servers/deploy/vessel-states.md`, "Starting timeout": 10 minutes).
 */
export const STARTING_TIMEOUT_MS = 10 * 60_000;

/** The reason a Vessel that cannot be placed shows in state Error. */
export const NO_SUITABLE_SITE = 'No suitable site found';

export interface LifecycleSettings {
  stepMs: number;
  terminationMs: number;
}

/** A stored Vessel plus what its status is computed from. */
export interface VesselRecord {
  /** The object as created (no status). */
  vessel: Vessel;
  /** When it last entered Pending. */
  startedAt: number;
  deletedAt?: number;
  deleteReason?: string;
  /** Set when it cannot be placed (state Error with this reason). */
  error?: string;
  /** Created by a Formation controller (rather than POSTed). */
  createdByController: boolean;
  /** Recent output per container name. */
  logs: Map<string, LogBuffer>;
}

interface VesselPhase {
  state: VesselState;
  reason?: string;
}

/** True once a deleted Vessel has finished terminating. */
export function isGone(rec: VesselRecord, now: number, s: LifecycleSettings): boolean {
  return rec.deletedAt !== undefined && now >= rec.deletedAt + s.terminationMs;
}

/** Why the Vessel's game server crashes on start (its image is marked crashing), or undefined. */
function crashOf(rec: VesselRecord, images: ImageLookup | undefined): string | undefined {
  for (const c of rec.vessel.spec.template.spec.containers) {
    const crash = c.branch && c.image ? images?.crashReason?.(c.branch, c.image) : undefined;
    if (crash) return crash;
  }
  return undefined;
}

/**
 * A Vessel whose game server crashes on start never signals Ready: it goes
 * round Pending, Scheduled, Created, Starting (for the 10 minutes of the
 * Starting timeout), Terminating (rescheduled), and Pending again (docs vessel-states.md).
 */
function crashLoopPhase(rec: VesselRecord, now: number, s: LifecycleSettings, crash: string): VesselPhase {
  const head = 3 * s.stepMs;
  const round = head + STARTING_TIMEOUT_MS + Math.max(s.terminationMs, 1);
  const at = Math.max(0, now - rec.startedAt) % round;
  if (at < head) return { state: START_SEQUENCE[Math.floor(at / s.stepMs)] as VesselState };
  if (at < head + STARTING_TIMEOUT_MS) return { state: 'Starting' };
  return { state: 'Terminating', reason: `Starting timeout: rescheduled to another site (${crash})` };
}

/**
 * The state at `now`, or undefined when the Vessel is gone. With `images`, a
 * Vessel whose image crashes on start loops without ever Running.
 */
export function vesselPhase(
  rec: VesselRecord,
  now: number,
  s: LifecycleSettings,
  images?: ImageLookup,
): VesselPhase | undefined {
  if (rec.deletedAt !== undefined) {
    if (isGone(rec, now, s)) return undefined;
    return { state: 'Terminating', ...(rec.deleteReason ? { reason: rec.deleteReason } : {}) };
  }
  if (rec.error !== undefined) return { state: 'Error', reason: rec.error };
  const crash = crashOf(rec, images);
  if (crash) return crashLoopPhase(rec, now, s, crash);
  const step = Math.max(0, Math.floor((now - rec.startedAt) / s.stepMs));
  return { state: START_SEQUENCE[Math.min(step, START_SEQUENCE.length - 1)] as VesselState };
}

/** Starts termination (idempotent: a second delete keeps the first deadline). */
export function markDeleting(rec: VesselRecord, now: number, reason: string): void {
  if (rec.deletedAt !== undefined) return;
  rec.deletedAt = now;
  rec.deleteReason = reason;
}

/** A copy of the Vessel with `status` computed for `now`. */
export function vesselWithStatus(
  rec: VesselRecord,
  now: number,
  s: LifecycleSettings,
  images?: ImageLookup,
): Vessel {
  const copy = deepClone(rec.vessel);
  const phase = vesselPhase(rec, now, s, images) ?? { state: 'Terminating' };
  copy.status = { ...phase };
  return copy;
}

/** The Formation a Vessel's ownerReferences name, if any. */
export function formationOwner(vessel: Vessel): string | undefined {
  return vessel.metadata.ownerReferences?.find((ref) => ref.kind === 'Formation')?.name;
}
