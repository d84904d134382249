/** The requests of armada/armadaset scale and image. */
import { z } from 'zod';
import {
  countRangeText,
  isReplicaCount,
  REPLICA_WORDS,
  replicaRuleProblems,
} from '../../api-shapes/replica-rules.js';
import { environmentName, imageName, name, optionalName, record, regionName, tag } from './vocabulary.js';

/** How people say each count (flags --min, --max, --buffer). */
export const COUNT_WORDS = REPLICA_WORDS;

/** For the command grammar: the same limit and words as the request schema. */
export { countRangeText, isReplicaCount };
export const COUNT_FIELDS = ['minReplicas', 'maxReplicas', 'bufferSize'] as const;

/** A whole number from 0 to the platform's limit, as a number or as digits (a command or a form); empty is absent. */
function count(field: keyof typeof COUNT_WORDS) {
  return z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v === '') return undefined;
      const n = typeof v === 'string' && /^\d{1,12}$/.test(v.trim()) ? Number(v) : v;
      if (isReplicaCount(n)) return n;
      ctx.addIssue({ code: 'custom', message: `${countRangeText(field)} (got ${JSON.stringify(v)})` });
      return z.NEVER;
    });
}

const counts = {
  /** The region type; may be left out when there is only one. */
  type: optionalName('region type', 'baremetal'),
  minReplicas: count('minReplicas'),
  maxReplicas: count('maxReplicas'),
  bufferSize: count('bufferSize'),
};

type Counts = { [K in (typeof COUNT_FIELDS)[number]]?: number | undefined };

/** At least one count; with all three, the platform's replica rules hold (checked before any API call). */
function checkCounts(r: Counts, ctx: z.RefinementCtx) {
  if (COUNT_FIELDS.every((k) => r[k] === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['replicas'],
      message: 'give at least one of --min, --max and --buffer, e.g. --max 20',
      params: { formMessage: 'fill in at least one of min, buffer and max, e.g. max 20' },
    });
    return;
  }
  const [minReplicas, maxReplicas, bufferSize] = COUNT_FIELDS.map((k) => r[k]);
  if (minReplicas === undefined || maxReplicas === undefined || bufferSize === undefined) return;
  for (const p of replicaRuleProblems({ minReplicas, maxReplicas, bufferSize })) {
    ctx.addIssue({ code: 'custom', path: ['replicas'], message: p.message });
  }
}

export const scaleArmadaSchema = record({
  environment: environmentName(),
  name: name('armada', 'duel'),
  ...counts,
}).superRefine(checkCounts);

export const scaleArmadaSetSchema = record({
  environment: environmentName(),
  name: name('ArmadaSet', 'arena'),
  /** The region whose distribution is scaled. */
  region: regionName(),
  ...counts,
}).superRefine(checkCounts);

export type ScaleFleetRequest = z.output<typeof scaleArmadaSchema> & { region?: string };

const image = {
  image: imageName(),
  tag: tag(),
  /** Which template container; may be left out when there is only one. */
  container: optionalName('container', 'game-server'),
};

export const imageArmadaSchema = record({
  environment: environmentName(),
  name: name('armada', 'duel'),
  ...image,
});
export const imageArmadaSetSchema = record({
  environment: environmentName(),
  name: name('ArmadaSet', 'arena'),
  ...image,
});

export type SetFleetImageRequest = z.output<typeof imageArmadaSchema>;

/** What a command or a form gives for it (before the schema fills defaults). */
export type ScaleArmadaInput = z.input<typeof scaleArmadaSchema>;
export type ScaleArmadaSetInput = z.input<typeof scaleArmadaSetSchema>;
export type ImageArmadaInput = z.input<typeof imageArmadaSchema>;
export type ImageArmadaSetInput = z.input<typeof imageArmadaSetSchema>;
