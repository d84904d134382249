/** The requests of vessel.create and vessel.delete. */
import type { z } from 'zod';
import { PORT_POLICIES, PORT_PROTOCOLS } from '../../api-shapes/resources.js';
import {
  cpu,
  environmentName,
  firstDuplicate,
  list,
  memory,
  name,
  oneOf,
  optionalText,
  port,
  record,
  regionName,
  requiredList,
  text,
  textList,
} from './vocabulary.js';

const portSchema = record({
  name: name('port', 'game'),
  containerPort: port(),
  protocol: oneOf(PORT_PROTOCOLS, 'UDP'),
  policy: oneOf(PORT_POLICIES, 'Dynamic'),
});

const containerSchema = record({
  name: name('container', 'game-server'),
  branch: name('branch', 'dev'),
  /** `image:tag` or an internal image name. */
  image: text('an image as image:tag', 'game-server:1.2.0'),
  ports: list(portSchema, { example: '[{ name: game, containerPort: 7777, protocol: UDP }]' }),
  args: textList('["--max-players", "16"]'),
  cpu: cpu(),
  memory: memory(),
});

export const createVesselSchema = record({
  environment: environmentName(),
  name: name('vessel', 'lobby-3'),
  region: regionName(),
  description: optionalText('a description', 'EU lobby overflow'),
  containers: requiredList(containerSchema, {
    min: 1,
    example: '[{ name: game-server, branch: dev, image: game-server:1.2.0 }]',
  }),
}).superRefine((r, ctx) => {
  const dup = firstDuplicate(r.containers.map((c) => c.name));
  if (dup) {
    ctx.addIssue({
      code: 'custom',
      path: ['containers'],
      message: `container names must be unique ("${dup}" appears twice)`,
    });
  }
});

export type CreateVesselRequest = z.output<typeof createVesselSchema>;
export type ContainerRequest = CreateVesselRequest['containers'][number];
/** One port of a container as the request reads it (what the form's port field parses into). */
export type PortRequest = z.output<typeof portSchema>;

export const deleteVesselSchema = record({
  environment: environmentName(),
  vessel: name('vessel', 'lobby-3'),
});

export type DeleteVesselRequest = z.output<typeof deleteVesselSchema>;

/** What a command or a form gives for it (before the schema fills defaults). */
export type CreateVesselInput = z.input<typeof createVesselSchema>;
export type DeleteVesselInput = z.input<typeof deleteVesselSchema>;
