/** The requests of formation.add (with per-container overrides) and formation.remove. */
import type { z } from 'zod';
import {
  environmentName,
  firstDuplicate,
  list,
  name,
  optionalText,
  record,
  regionName,
  textList,
} from './vocabulary.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,252}$/;

/** `NAME=value` items as variables to set, each bad item named. */
const envList = textList('["LOG_LEVEL=debug"]').transform((items, ctx) => {
  if (!items) return undefined;
  const env: { name: string; value: string }[] = [];
  for (const item of items) {
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq);
    if (eq < 0 || !ENV_NAME.test(key)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${item}" is not NAME=value with a name of letters, digits and _ . -; e.g. LOG_LEVEL=debug`,
      });
      continue;
    }
    env.push({ name: key, value: item.slice(eq + 1) });
  }
  return env;
});

const overrideSchema = record({
  container: name('container', 'game-server'),
  /** `image:tag` or an internal image name, resolved in the container's branch. */
  image: optionalText('an image as image:tag', 'game-server:1.2.0'),
  args: textList('["--mode", "ranked"]'),
  command: textList('["/app/server"]'),
  /** Variables to set, replacing the template's of the same name. */
  env: envList,
})
  .transform((o) => {
    // Absent parts are left out, so a stored request says only what the override changes.
    const out: {
      container: string;
      image?: string;
      args?: string[];
      command?: string[];
      env?: { name: string; value: string }[];
    } = {
      container: o.container,
    };
    if (o.image !== undefined) out.image = o.image;
    if (o.args !== undefined) out.args = o.args;
    if (o.command !== undefined) out.command = o.command;
    if (o.env !== undefined) out.env = o.env;
    return out;
  })
  .superRefine((o, ctx) => {
    if (Object.keys(o).length === 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['image'],
        message: `override of container ${o.container} needs an image, args, command or env, e.g. image game-server:1.2.0`,
      });
    }
  });

export const addToFormationSchema = record({
  environment: environmentName(),
  formation: name('formation', 'lobby'),
  vessel: name('vessel', 'lobby-3'),
  region: regionName(),
  overrides: list(overrideSchema, { example: '[{ container: game-server, image: game-server:1.2.0 }]' }),
}).superRefine((r, ctx) => {
  const dup = firstDuplicate(r.overrides.map((o) => o.container));
  if (dup) {
    ctx.addIssue({
      code: 'custom',
      path: ['overrides'],
      message: `container ${dup} is overridden twice; give one override per container`,
    });
  }
});

export type AddToFormationRequest = z.output<typeof addToFormationSchema>;
export type OverrideRequest = AddToFormationRequest['overrides'][number];

export const removeFromFormationSchema = record({
  environment: environmentName(),
  formation: name('formation', 'lobby'),
  vessel: name('vessel', 'lobby-2'),
});

export type RemoveFromFormationRequest = z.output<typeof removeFromFormationSchema>;

/** What a command or a form gives for it (before the schema fills defaults). */
export type AddToFormationInput = z.input<typeof addToFormationSchema>;
export type RemoveFromFormationInput = z.input<typeof removeFromFormationSchema>;
