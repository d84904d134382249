/**
 * A Region Type's priority is its index in the Region's `spec.types`: 0 is
 * the highest (docs architecture/allocators.md, ALLOC_PRIORITY "Index of the
 * Region Type … 0 = first type"; architecture/regions-sites-and-locations.md
 * "0 = highest priority"). An Armada's distribution may list its types in any
 * order, so Scale to Zero ranks them by the Region, never by the distribution.
 */
import type { Armada } from '../api-shapes/armada-resources.js';
import type { EnvironmentState } from './store.js';

/** The type names of the Armada's Region, highest priority first; empty when the Region is unknown. */
export function regionTypeOrder(env: EnvironmentState, armada: Armada): string[] {
  return env.regions.get(armada.spec.region)?.spec.types.map((t) => t.name) ?? [];
}
