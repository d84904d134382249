/** Shared Formation reads for the formation operations. */

import type { Formation } from '../../api-shapes/resources.js';
import type { GameFabricClient } from '../../gamefabric/client.js';
import { isNotFound } from '../../gamefabric/errors.js';
import { missingIn } from '../not-found.js';

/** The Formation, or a UserError naming what was not found. */
export async function readFormation(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<Formation> {
  try {
    return await client.getFormation(environment, name);
  } catch (err) {
    if (isNotFound(err))
      throw await missingIn('formation', name, environment, async () =>
        (await client.listFormations(environment)).map((f) => f.metadata.name),
      );
    throw err;
  }
}

/** "0. lobby-1 (eu-central)" lines, with overrides marked. */
export function formationVesselList(formation: Formation): string[] {
  return formation.spec.vessels.map(
    (v, i) => `${i}. ${v.name} (${v.region})${v.override?.containers?.length ? ' with overrides' : ''}`,
  );
}
