/**
 * How a rollback names the targets it writes, shared by the operations'
 * restores (changes/operations/<id>/restore.ts) and what their previews add
 * from the forward operations: "armada duel", "ArmadaSet arena in eu-central",
 * "formation arena", "vessel duel-1".
 */
import type { FleetKind } from '../../gamefabric/client.js';

/** A target a restore writes: its kind (`fleet`), name and environment. */
interface Written {
  fleet: string;
  name: string;
  environment: string;
}

export const fleetWhere = (u: { fleet: string; name: string; region?: string }): string => {
  switch (u.fleet) {
    case 'ArmadaSet':
      return `ArmadaSet ${u.name}${u.region ? ` in ${u.region}` : ''}`;
    case 'Formation':
      return `formation ${u.name}`;
    case 'Vessel':
      return `vessel ${u.name}`;
    default:
      return `armada ${u.name}`;
  }
};

/** "ArmadaSet arena (prod)": a promotion's target with its environment. */
export const promotedWhere = (t: Written): string => `${fleetWhere(t)} (${t.environment})`;

/** Whether a promotion's target is an Armada or ArmadaSet (not a Formation or Vessel). */
export const isFleetTarget = <T extends Written>(t: T): t is T & { fleet: FleetKind } =>
  t.fleet === 'Armada' || t.fleet === 'ArmadaSet';
