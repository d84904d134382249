/** Errors of the Armada and ArmadaSet writes: what the object lacks, or what moved since it was read. */
import { GameFabricError } from './errors.js';

/** The Armada (or the ArmadaSet's region) has no distribution entry for the region type. */
export class RegionTypeNotInDistributionError extends GameFabricError {
  constructor(
    readonly objectName: string,
    readonly typeName: string,
    readonly available: readonly string[],
  ) {
    super(
      `${objectName} has no region type ${typeName}` +
        (available.length > 0 ? ` (its types: ${available.join(', ')})` : ' (it has no region types)'),
    );
  }
}

/** The ArmadaSet does not list the region. */
export class RegionNotInArmadaSetError extends GameFabricError {
  constructor(
    readonly armadaSet: string,
    readonly region: string,
    readonly available: readonly string[],
  ) {
    super(
      `ArmadaSet ${armadaSet} has no region ${region}` +
        (available.length > 0 ? ` (its regions: ${available.join(', ')})` : ' (it lists no regions)'),
    );
  }
}

/** The template has no container of that name. */
export class ContainerNotInTemplateError extends GameFabricError {
  constructor(
    readonly objectName: string,
    readonly container: string,
    readonly available: readonly string[],
  ) {
    super(`${objectName} has no container ${container} (its containers: ${available.join(', ') || 'none'})`);
  }
}

/** What a guarded write relied on is no longer what the object holds; nothing was written. */
export class ArmadaMovedError extends GameFabricError {
  constructor(
    readonly objectName: string,
    /** What moved, e.g. "distribution of baremetal" or "image of game-server". */
    readonly what: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${what} of ${objectName} changed (expected ${expected}, now ${actual}); nothing was written`);
  }
}
