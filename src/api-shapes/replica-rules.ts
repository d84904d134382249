/**
 * The replica rules of one Armada region type (GameFabric docs,
 * armada-replicas-and-buffer), shared by the bot (checked before any preview)
 * and the simulator (checked on every write), like the name rules in names.ts.
 */

/**
 * The largest count the platform takes: the provider validates min, max and
 * buffer as 32-bit integers (`validators.GFFieldInt32`, internal/resource/armada/armada.go).
 * Flags, forms and the simulator's refusals all name this limit.
 */
const MAX_REPLICA_COUNT = 2_147_483_647;

/** How people say each count, in every surface (flags --min/--max/--buffer, form fields, refusals). */
export const REPLICA_WORDS = { minReplicas: 'min', maxReplicas: 'max', bufferSize: 'buffer' } as const;

/** "max must be a whole number from 0 to 2147483647" */
export function countRangeText(field: keyof typeof REPLICA_WORDS): string {
  return `${REPLICA_WORDS[field]} must be a whole number from 0 to ${MAX_REPLICA_COUNT}`;
}

/** Whether `v` is a count the platform takes. */
export function isReplicaCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_REPLICA_COUNT;
}

export interface ReplicaValues {
  minReplicas: number;
  maxReplicas: number;
  bufferSize: number;
}

/** Which rule a set of values breaks; the words are for people, the id for code. */
export interface ReplicaRuleProblem {
  rule: 'out-of-range' | 'max-below-min' | 'max-below-buffer' | 'buffer-zero' | 'min-below-buffer';
  message: string;
}

/** Every rule `v` breaks, in the docs' order; [] when the values are valid (0, 0, 0 is a drain and valid). */
export function replicaRuleProblems(v: ReplicaValues): ReplicaRuleProblem[] {
  const { minReplicas: min, maxReplicas: max, bufferSize: buffer } = v;
  const problems: ReplicaRuleProblem[] = [];
  // Only the three counts: callers may pass a whole request that carries them.
  for (const [field, value] of [
    ['minReplicas', min],
    ['maxReplicas', max],
    ['bufferSize', buffer],
  ] as const) {
    if (!isReplicaCount(value)) {
      problems.push({ rule: 'out-of-range', message: `${countRangeText(field)} (got ${value})` });
    }
  }
  if (problems.length > 0) return problems;
  if (max < min) problems.push({ rule: 'max-below-min', message: `max (${max}) must be >= min (${min})` });
  if (max < buffer)
    problems.push({ rule: 'max-below-buffer', message: `max (${max}) must be >= buffer (${buffer})` });
  if (max > 0 && buffer === 0)
    problems.push({ rule: 'buffer-zero', message: `buffer must be > 0 when max is > 0 (max is ${max})` });
  if (min > 0 && min < buffer)
    problems.push({
      rule: 'min-below-buffer',
      message: `min (${min}) must be >= buffer (${buffer}) when min is > 0`,
    });
  return problems;
}
