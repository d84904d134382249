/**
 * What an applied change's inverse needs, recorded by its operation when it
 * applies (the before-state its guard read, the API's answer) and stored with
 * the change (`undo`), so a rollback never has to guess what was replaced.
 * `after` is what the change left: the rollback's guard compares the world
 * with it and refuses when anything moved since.
 */

import type { ReplicaValues } from '../../api-shapes/replica-rules.js';
import type { FormationVessel } from '../../api-shapes/resources.js';
import type { FleetKind, VesselCreate } from '../../gamefabric/client.js';

/** What an ImageUpdater may target (its `targetRef.kind`): a fleet, a Formation or a Vessel. */
export type PromotedKind = FleetKind | 'Formation' | 'Vessel';

/** One template container an image promotion rolled out through an ImageUpdater. */
export interface PromotedTarget {
  /** The target's kind (named `fleet` since undos stored before Formations and Vessels were recorded). */
  fleet: PromotedKind;
  environment: string;
  name: string;
  container: string;
  /** The ImageUpdater that rolls it out. */
  updater: string;
  /** Internal image names: what it ran before the promotion, and the promoted copy. */
  before: string;
  after: string;
  /** `image:tag` as people read them. */
  beforeLabel: string;
  afterLabel: string;
}

/** An ImageUpdater target a promotion's undo could not record (read failed): named by its rollback. */
export interface UnrecordedTarget {
  kind: string;
  environment: string;
  name: string;
  updater: string;
  why: string;
}

export type Undo =
  | {
      kind: 'scheduling';
      environment: string;
      region: string;
      type: string;
      before: string;
      after: string;
    }
  | {
      kind: 'fleet.scale';
      fleet: FleetKind;
      environment: string;
      name: string;
      /** The ArmadaSet's region; absent for an Armada. */
      region?: string;
      type: string;
      before: ReplicaValues;
      after: ReplicaValues;
    }
  | {
      kind: 'fleet.image';
      fleet: FleetKind;
      environment: string;
      name: string;
      container: string;
      /** Internal image names (what the template holds); `before` null when the container had none. */
      before: string | null;
      after: string;
      /** `image:tag` as people read them. */
      beforeLabel: string;
      afterLabel: string;
    }
  | {
      kind: 'vessel.added';
      environment: string;
      formation: string;
      /** The entry added, as written. */
      vessel: FormationVessel;
    }
  | {
      kind: 'vessel.removed';
      environment: string;
      formation: string;
      /** The entry removed, as the guarded patch read it (region and overrides). */
      vessel: FormationVessel;
      index: number;
    }
  | {
      kind: 'vessel.created';
      environment: string;
      name: string;
      /** The API's answer: the new Vessel's uid and spec. */
      uid: string | null;
      spec: unknown;
    }
  | {
      kind: 'vessel.deleted';
      environment: string;
      name: string;
      /** The Vessel as read just before the delete, as a create body. */
      vessel: VesselCreate;
      uid: string | null;
    }
  | {
      kind: 'image.promotion';
      /** The branch the image was promoted into, and `image:tag`. */
      branch: string;
      promoted: string;
      targets: PromotedTarget[];
      /** Why there is nothing to set back (no ImageUpdater target): Roll back is then not offered. */
      nothing?: string;
      /** Targets of those ImageUpdaters whose image before the promotion could not be recorded, and why: named, not set back. */
      unrecorded?: UnrecordedTarget[];
    };

/** Whether `undo` holds an inverse to offer: a promotion with nothing Harbormaster can set back records only why not. */
export function offersRollback(undo: Undo | undefined): boolean {
  return undo !== undefined && !(undo.kind === 'image.promotion' && undo.nothing);
}
