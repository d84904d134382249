/**
 * Reading the Armada or ArmadaSet a change acts on, with the answers people
 * need when it is not there: a did-you-mean while planning, "nothing was
 * changed" once the preview stood (it went away meanwhile).
 */
import type { Armada, ArmadaSet } from '../api-shapes/armada-resources.js';
import type { FleetKind, GameFabricClient } from '../gamefabric/client.js';
import { isNotFound } from '../gamefabric/errors.js';
import { WorldMovedError } from './errors.js';
import { missingIn, NotFoundError, quote } from './not-found.js';

/** The fleet; NotFoundError with a did-you-mean, or WorldMovedError when `afterPreview`. */
export async function readFleet(
  client: GameFabricClient,
  kind: FleetKind,
  environment: string,
  name: string,
  afterPreview = false,
): Promise<Armada | ArmadaSet> {
  const isSet = kind === 'ArmadaSet';
  try {
    return isSet ? await client.getArmadaSet(environment, name) : await client.getArmada(environment, name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (afterPreview) throw new WorldMovedError(`${kind} ${name} no longer exists; nothing was changed.`);
    // The `armadas` list shows both kinds: a name of the other kind gets a pointer, not a did-you-mean.
    const other = await (isSet
      ? client.getArmada(environment, name)
      : client.getArmadaSet(environment, name)
    ).then(
      () => true,
      () => false,
    );
    if (other) {
      throw new NotFoundError(
        isSet ? 'ArmadaSet' : 'armada',
        name,
        `${quote(name)} in environment ${quote(environment)} is ${isSet ? 'an armada, not an ArmadaSet: use `armada …`' : 'an ArmadaSet, not an armada: use `armadaset …`'} (see \`${isSet ? 'armada' : 'armadaset'} show ${environment} ${name}\`).`,
      );
    }
    throw await missingIn(isSet ? 'ArmadaSet' : 'armada', name, environment, async () =>
      (isSet ? await client.listArmadaSets(environment) : await client.listArmadas(environment)).map(
        (x) => x.metadata.name,
      ),
    );
  }
}
