/**
 * How the simulated Formation controller reads a Vessel entry's
 * `override.containers`. The sources disagree (docs/gamefabric-compatibility.md):
 * the docs' example names each entry's container and sets its image; the
 * provider's override type has neither a name nor an image, which means
 * entries apply by position and an image in them is dropped. The simulator
 * can play each reading so the bot is tested against all of them.
 */
import type { Container, ContainerOverride, Formation } from '../api-shapes/resources.js';

export interface OverrideSettings {
  /**
   * 'name': the seed's reading, an entry applies to the container it names.
   * 'position': entry i applies to template container i, its `name` unused.
   */
  overrideMatching: 'name' | 'position';
  /** Drop `image` from stored override entries, as an API that keeps the provider's type would. */
  ignoreOverrideImages: boolean;
}

/** The seed's reading: by name, images kept. */
export const SEED_OVERRIDES: OverrideSettings = { overrideMatching: 'name', ignoreOverrideImages: false };

/** The template container override entry `index` applies to, if any. */
export function overriddenContainer<C extends Container>(
  containers: C[],
  override: ContainerOverride,
  index: number,
  matching: OverrideSettings['overrideMatching'],
): C | undefined {
  if (matching === 'position') return containers[index];
  return containers.find((c) => c.name === override.name);
}

/** Removes `image` from every override entry, in place (what a decoder into the provider's type keeps). */
export function dropOverrideImages(formation: Formation): void {
  for (const entry of formation.spec.vessels) {
    for (const override of entry.override?.containers ?? []) delete override.image;
  }
}
