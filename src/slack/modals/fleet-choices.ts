/**
 * The Armada or ArmadaSet a fleet modal works on: the list of the environment
 * as choices, and the one picked (or named by the command that opened it).
 */

import type { FleetPick } from '../../changes/form-pickers.js';
import { UserError } from '../../errors/user-error.js';
import type { ModalMetadata } from '../ids.js';
import type { Choice } from './blocks.js';
import { readChoice } from './state.js';
import type { ModalDeps, ViewStateValues } from './types.js';

/** The block id of the fleet select, shared by the scale and image modals. */
export const FLEET_BLOCK = 'fleet';

/** Fleets as choices; an Armada its ArmadaSet owns says so (the operations point to the set). */
export function fleetChoices(fleets: readonly FleetPick[]): Choice[] {
  return fleets.map((f) => ({
    label: f.owner ? `${f.name} (of ArmadaSet ${f.owner})` : f.name,
    value: f.name,
  }));
}

/** The environment's fleets of `kind` and the one chosen; a UserError when the environment does not exist. */
export async function fleetPicked(
  queries: ModalDeps['queries'],
  kind: 'Armada' | 'ArmadaSet',
  environment: string,
  meta: ModalMetadata,
  values: ViewStateValues,
): Promise<{ fleets: FleetPick[]; fleet: FleetPick | undefined }> {
  const fleets =
    kind === 'Armada' ? await queries.armadasIn(environment) : await queries.armadaSetsIn(environment);
  if (!fleets) throw new UserError(`There is no environment ${environment}.`, 'not_found');
  const name =
    readChoice(values, FLEET_BLOCK) ?? meta.fleet ?? (fleets.length === 1 ? fleets[0]?.name : undefined);
  return { fleets, fleet: fleets.find((f) => f.name === name) };
}
