/**
 * Delete a standalone Vessel. A Vessel owned by a Formation is refused (seed
 * rule 3): deleting it directly would only make the controller recreate it, so
 * the message points to the Formation removal instead.
 */

import type { Vessel } from '../../../api-shapes/resources.js';
import { UserError } from '../../../errors/user-error.js';
import type { GameFabricClient, VesselCreate } from '../../../gamefabric/client.js';
import { isNotFound } from '../../../gamefabric/errors.js';
import { WorldMovedError } from '../../errors.js';
import { describeState, untilGone, watchVessel } from '../../follow.js';
import { imageTags, tagOf } from '../../image-tags.js';
import { missingIn } from '../../not-found.js';
import type { OperationModule } from '../../operation.js';
import { type DeleteVesselRequest, deleteVesselSchema } from '../../requests/vessels.js';
import { parseRequest } from '../../requests/vocabulary.js';
import { vesselShutdownText } from '../../vessel-shutdown.js';
import type { DeletedVessel } from '../vessel.create/restore.js';

export const deleteVessel: OperationModule<DeleteVesselRequest> = {
  parse: (input) => parseRequest(deleteVesselSchema, input),

  target: (r) => ({ environment: r.environment, vessel: r.vessel }),

  async plan(ctx, r) {
    const vessel = await standaloneVessel(ctx.client, r);
    const containers = vessel.spec.template.spec.containers;
    const tags = await imageTags(ctx.client, containers);
    return {
      summary: `Delete vessel ${r.vessel} in ${r.environment}`,
      lines: [
        { label: 'Environment', value: r.environment },
        { label: 'Vessel', value: r.vessel },
        { label: 'Region', value: vessel.spec.region },
        { label: 'State', value: describeState(vessel) },
        {
          label: 'Containers',
          value: containers.map((c) => `${c.name}: ${tagOf(tags, c.image)}`).join(', '),
        },
      ],
      notes: [vesselShutdownText(r.vessel)],
      destructive: true,
      facts: { uid: vessel.metadata.uid ?? null },
    };
  },

  async apply(ctx, { request: r, preview }) {
    const vessel = await standaloneVessel(ctx.client, r, 'since the preview');
    if (preview.facts.uid && vessel.metadata.uid && vessel.metadata.uid !== preview.facts.uid) {
      throw new WorldMovedError(
        `Vessel ${r.vessel} was re-created since the preview (it is a different object now); nothing was deleted.`,
      );
    }
    await ctx.client.deleteVessel(r.environment, r.vessel);
    return {
      summary: `Deleted vessel ${r.vessel} in ${r.environment}`,
      // The follow-up replaces it with what it sees next (gone).
      lines: [{ label: 'State', value: 'Terminating' }],
      facts: { vessel: { environment: r.environment, name: r.vessel } },
      undo: {
        environment: r.environment,
        name: r.vessel,
        uid: vessel.metadata.uid ?? null,
        vessel: recreatable(vessel),
      } satisfies DeletedVessel,
    };
  },

  async verify(ctx, { request: r }) {
    try {
      const vessel = await ctx.client.getVessel(r.environment, r.vessel);
      return vessel.status?.state === 'Terminating' ? 'applied' : 'not_applied';
    } catch (err) {
      if (isNotFound(err)) return 'applied';
      throw err;
    }
  },

  follow: (ctx, { request: r }) => watchVessel(ctx, r.environment, r.vessel, untilGone(r.vessel)),
};

async function standaloneVessel(
  client: GameFabricClient,
  r: DeleteVesselRequest,
  when?: string,
): Promise<Vessel> {
  let vessel: Vessel;
  try {
    vessel = await client.getVessel(r.environment, r.vessel);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (when)
      throw new WorldMovedError(
        `No vessel ${r.vessel} in environment ${r.environment} any more (it existed ${when}); nothing was deleted.`,
      );
    throw await missingIn('vessel', r.vessel, r.environment, async () =>
      (await client.listVessels(r.environment)).map((v) => v.metadata.name),
    );
  }
  const owner = vessel.metadata.ownerReferences?.find((o) => o.kind === 'Formation');
  if (owner) {
    throw new UserError(
      `Vessel ${r.vessel} belongs to formation ${owner.name}; deleting it directly would not remove it from the formation. Remove it from the formation instead: formation remove ${r.environment} ${owner.name} ${r.vessel}`,
      'refused',
    );
  }
  if (vessel.status?.state === 'Terminating') {
    throw new UserError(`Vessel ${r.vessel} is already terminating.`, 'noop');
  }
  return vessel;
}

/**
 * The Vessel as a create body, from what was read just before the delete: its
 * name, description, region and template (labels and annotations kept), none
 * of what the service sets (uid, revision, status). A rollback creates it again from this.
 */
function recreatable(vessel: Vessel): VesselCreate {
  const { name, environment, labels, annotations } = vessel.metadata;
  return {
    metadata: {
      name,
      ...(environment ? { environment } : {}),
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    spec: vessel.spec,
  };
}
