/**
 * The replica rules of one Armada region type (GameFabric docs,
 * armada-replicas-and-buffer), shared by the bot (checked before any preview)
 * and the simulator (checked on every write), like the name rules in names.ts.
 */

export interface ReplicaValues {
  minReplicas: number;
  maxReplicas: number;
  bufferSize: number;
}

/** Which rule a set of values breaks; the words are for people, the id for code. */
export interface ReplicaRuleProblem {
  rule: 'non-negative' | 'max-below-min' | 'max-below-buffer' | 'buffer-zero' | 'min-below-buffer';
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
    if (!Number.isInteger(value) || value < 0) {
      problems.push({ rule: 'non-negative', message: `${field} must be a whole number >= 0 (got ${value})` });
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

/** Whether the values drain the region type: no game servers at all, allocated ones end. */
export function isDrain(v: Pick<ReplicaValues, 'maxReplicas'>): boolean {
  return v.maxReplicas === 0;
}
