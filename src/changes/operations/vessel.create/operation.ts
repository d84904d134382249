/**
 * Create a standalone Vessel. Images are named as users know them
 * (`image:tag`) and resolved to internal names before the preview (seed rule 5).
 */

import type { Container } from '../../../api-shapes/resources.js';
import { UserError } from '../../../errors/user-error.js';
import { isNotFound } from '../../../gamefabric/errors.js';
import { argsText } from '../../args-text.js';
import { NameTakenError, WorldMovedError } from '../../errors.js';
import { untilScheduled, watchVessel } from '../../follow.js';
import { quote } from '../../not-found.js';
import type { OperationModule } from '../../operation.js';
import {
  type ContainerRequest,
  type CreateVesselRequest,
  createVesselSchema,
} from '../../requests/vessels.js';
import { parseRequest } from '../../requests/vocabulary.js';
import { imageLabel, resolveImage } from '../resolve-image.js';
import type { CreatedVessel } from '../vessel.delete/restore.js';

export const createVessel: OperationModule<CreateVesselRequest> = {
  parse: (input) => parseRequest(createVesselSchema, input),

  target: (r) => ({ environment: r.environment, region: r.region, vessel: r.name }),

  async plan(ctx, r) {
    await ctx.client.getVessel(r.environment, r.name).then(
      () => {
        throw new NameTakenError(
          'name',
          `A vessel named ${r.name} already exists in ${r.environment}; pick another name.`,
        );
      },
      (err) => {
        if (!isNotFound(err)) throw err;
      },
    );
    await ctx.client.getRegion(r.environment, r.region).catch((err) => {
      if (isNotFound(err))
        throw new UserError(`region: no region ${r.region} in environment ${r.environment}`, 'not_found');
      throw err;
    });
    const containers: Container[] = [];
    const lines = [
      { label: 'Environment', value: r.environment },
      { label: 'Vessel', value: r.name },
      { label: 'Region', value: r.region },
    ];
    for (const [i, c] of r.containers.entries()) {
      const image = await resolveImage(ctx.client, c.branch, c.image, `containers[${i}].image`);
      containers.push(toContainer(c, image.metadata.name));
      const extras = [
        c.ports.map((p) => `${p.name} ${p.containerPort}/${p.protocol} ${p.policy}`).join(', '),
        c.cpu || c.memory ? `requests ${[c.cpu, c.memory].filter(Boolean).join('/')}` : '',
        c.args?.length ? `args ${quote(argsText(c.args))}` : '',
      ].filter(Boolean);
      lines.push({
        label: i === 0 ? `Game server ${c.name}` : `Sidecar ${c.name}`,
        value: [`${imageLabel(image)} from ${c.branch}`, ...extras].join('; '),
      });
    }
    return {
      summary: `Create vessel ${r.name} in ${r.environment} (region ${r.region})`,
      lines,
      notes: [],
      destructive: false,
      facts: { containers },
    };
  },

  async apply(ctx, { request: r, preview }) {
    const containers = preview.facts.containers as Container[];
    for (const c of containers) {
      const still = (await ctx.client.listImages(c.branch ?? '')).some((i) => i.metadata.name === c.image);
      if (!still) {
        throw new WorldMovedError(
          `Image ${c.image} is no longer in branch ${c.branch}; nothing was created.`,
        );
      }
    }
    const vessel = await ctx.client.createVessel(r.environment, {
      metadata: { name: r.name, environment: r.environment },
      spec: {
        ...(r.description ? { description: r.description } : {}),
        region: r.region,
        template: { spec: { containers } },
      },
    });
    return {
      summary: `Created vessel ${r.name} in ${r.environment}`,
      lines: [{ label: 'State', value: vessel.status?.state ?? 'Pending' }],
      facts: { vessel: { environment: r.environment, name: r.name } },
      undo: {
        environment: r.environment,
        name: r.name,
        uid: vessel.metadata.uid ?? null,
        spec: vessel.spec,
      } satisfies CreatedVessel,
    };
  },

  async verify(ctx, { request: r }) {
    try {
      await ctx.client.getVessel(r.environment, r.name);
      return 'applied';
    } catch (err) {
      if (isNotFound(err)) return 'not_applied';
      throw err;
    }
  },

  follow: (ctx, { request: r }) => watchVessel(ctx, r.environment, r.name, untilScheduled),
};

function toContainer(c: ContainerRequest, imageName: string): Container {
  return {
    name: c.name,
    branch: c.branch,
    image: imageName,
    ...(c.ports.length ? { ports: c.ports } : {}),
    ...(c.args?.length ? { args: c.args } : {}),
    ...(c.cpu || c.memory
      ? {
          resources: {
            requests: { ...(c.cpu ? { cpu: c.cpu } : {}), ...(c.memory ? { memory: c.memory } : {}) },
          },
        }
      : {}),
  };
}
