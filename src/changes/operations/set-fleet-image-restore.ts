/**
 * A fleet's container image set back (armada.image and armadaset.image are
 * their own inverses): the request is what the image change recorded when it
 * applied. The fleet's strategy and the ImageUpdaters that may roll it
 * forward again are said as the image change's own preview says them
 * (`rolloutWords`, issue 38); the image written back must still be in its
 * branch (`imagesBack`).
 */
import type { FleetKind } from '../../gamefabric/client.js';
import { readFleet } from '../fleet-read.js';
import type { OperationContext } from '../operation.js';
import { gone } from '../rollback/gone.js';
import { fleetWhere } from '../rollback/inverse-words.js';
import { type GuardFinding, InverseMovedError, moved, type Restore, UNCHANGED } from '../rollback/restore.js';
import { rolloutWords } from './rollout-words.js';

/** What an image change recorded when it applied (its undo), and the request that sets it back. */
export interface ImageSet {
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

/** Whether the fleet's container runs `image`, or what it shows instead. */
async function runs(ctx: OperationContext, u: ImageSet, image: string | null): Promise<GuardFinding> {
  const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name).catch(gone);
  if (!fleet) return moved(`${fleetWhere(u)} no longer exists`);
  const container = fleet.spec.template.spec.containers.find((x) => x.name === u.container);
  if (!container) return moved(`${fleetWhere(u)} no longer has a container ${u.container}`);
  return container.image === image
    ? UNCHANGED
    : moved(`container ${u.container} of ${fleetWhere(u)} now runs ${container.image ?? 'no image'}`);
}

export const restoreImage: Restore<ImageSet> = {
  view: (u) => ({
    target:
      u.fleet === 'ArmadaSet'
        ? { environment: u.environment, armadaSet: u.name }
        : { environment: u.environment, armada: u.name },
    summary: `Roll ${fleetWhere(u)} (${u.environment}), container ${u.container}, back to ${u.beforeLabel}`,
    lines: [
      { label: 'Image', value: `${u.afterLabel} → ${u.beforeLabel}` },
      { label: 'Internal name', value: `${u.after} → ${u.before ?? 'none'}`, secondary: true },
    ],
    destructive: false,
    // The strategy and the ImageUpdaters are said as the image change's own preview says them (effects).
    warnings: [],
    notes: [],
    subject: `the image of container ${u.container} of ${fleetWhere(u)}`,
  }),

  guard: (ctx, u) => runs(ctx, u, u.after),

  async write(ctx, u) {
    if (u.before === null) throw new InverseMovedError('the container had no image before');
    await ctx.client.setTemplateImage(
      { kind: u.fleet, env: u.environment, name: u.name, container: u.container },
      u.after,
      u.before,
      { maxAttempts: 1 },
    );
  },

  restored: async (ctx, u) => (await runs(ctx, u, u.before)).kind === 'unchanged',

  subjectKey: (u) => ['image', u.fleet, u.environment, u.name, u.container].join('|'),

  async effects(ctx, u) {
    const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name);
    return rolloutWords(ctx.client, u.fleet, u.environment, fleet, fleetWhere(u));
  },

  async imagesBack(ctx, u) {
    if (u.before === null) return [];
    const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name).catch(() => undefined);
    const branch = fleet?.spec.template.spec.containers.find((c) => c.name === u.container)?.branch;
    return branch ? [{ internal: u.before, label: u.beforeLabel, branch }] : [];
  },
};
