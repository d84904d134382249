/**
 * The Vessel lifecycle, computed lazily from the injected clock: a record
 * stores when it (re)started and when it was deleted; its state at any moment
 * follows from those times, so a ManualClock drives it deterministically.
 */
import type { Vessel, VesselState } from '../api-shapes/resources.js';
import { deepClone } from './json.js';
import type { LogBuffer } from './log-lines.js';

/** Pending -> Scheduled -> Created -> Starting -> Running, one step each. */
const START_SEQUENCE: readonly VesselState[] = ['Pending', 'Scheduled', 'Created', 'Starting', 'Running'];

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

/** The state at `now`, or undefined when the Vessel is gone. */
export function vesselPhase(rec: VesselRecord, now: number, s: LifecycleSettings): VesselPhase | undefined {
  if (rec.deletedAt !== undefined) {
    if (isGone(rec, now, s)) return undefined;
    return { state: 'Terminating', ...(rec.deleteReason ? { reason: rec.deleteReason } : {}) };
  }
  if (rec.error !== undefined) return { state: 'Error', reason: rec.error };
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
export function vesselWithStatus(rec: VesselRecord, now: number, s: LifecycleSettings): Vessel {
  const copy = deepClone(rec.vessel);
  const phase = vesselPhase(rec, now, s) ?? { state: 'Terminating' };
  copy.status = { ...phase };
  return copy;
}

/** The Formation a Vessel's ownerReferences name, if any. */
export function formationOwner(vessel: Vessel): string | undefined {
  return vessel.metadata.ownerReferences?.find((ref) => ref.kind === 'Formation')?.name;
}
