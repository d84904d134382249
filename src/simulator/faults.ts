/**
 * Fault injection for tests: added latency, a share of error answers, 429s
 * with Retry-After, dropped connections and cut-off log streams, per route.
 */
import { z } from 'zod';
import { badRequest, reasonForCode, SimError } from './http-utils/status.js';
import { AFTER_WRITE_FAULTS, type AfterWriteFault, type FaultRule } from './types.js';

const FaultRuleSchema = z.strictObject({
  method: z.string().min(1).optional(),
  path: z.string().min(1),
  latencyMs: z.number().int().min(0).optional(),
  status: z.number().int().min(400).max(599).optional(),
  share: z.number().min(0).max(1).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  dropConnection: z.boolean().optional(),
  plainText: z.boolean().optional(),
  cutLogStreamAfterLines: z.number().int().min(0).optional(),
  afterWrite: z.enum(AFTER_WRITE_FAULTS as [AfterWriteFault, ...AfterWriteFault[]]).optional(),
  landAfterMs: z.number().int().min(0).optional(),
  writeStatusFirst: z.boolean().optional(),
  times: z.number().int().min(1).optional(),
});

/** Validates fault rules (e.g. from the control endpoint); 400 naming each bad field. */
export function parseFaultRules(value: unknown): FaultRule[] {
  const result = z.array(FaultRuleSchema).safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `[${i.path.join('.')}]: ${i.message}`).join('; ');
    throw badRequest(`invalid fault rules: ${problems}`);
  }
  return result.data;
}

/** A RegExp for a path glob: `**` spans segments, `*` stays within one. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob.charAt(i);
    if (ch === '*' && glob.charAt(i + 1) === '*') {
      source += '.*';
      i++;
    } else if (ch === '*') {
      source += '[^/]*';
    } else {
      source += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/** What the faults decided for one request. */
interface FaultDecision {
  latencyMs: number;
  status?: number;
  retryAfterSeconds?: number;
  plainText?: boolean;
  drop: boolean;
  cutAfterLines?: number;
  afterWrite?: AfterWriteFault;
  landAfterMs?: number;
  writeStatusFirst?: boolean;
}

interface ActiveRule {
  rule: FaultRule;
  pattern: RegExp;
  remaining: number;
}

/** The current fault rules and the decision for each request. */
export class FaultSet {
  private rules: ActiveRule[] = [];

  constructor(private readonly random: () => number) {}

  /** Replaces all rules (validated). */
  set(rules: readonly FaultRule[]): void {
    this.rules = parseFaultRules(rules).map((rule) => ({
      rule,
      pattern: globToRegExp(rule.path),
      remaining: rule.times ?? Number.POSITIVE_INFINITY,
    }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The rules with their remaining uses. */
  list(): Array<FaultRule & { remaining?: number }> {
    return this.rules.map((r) =>
      Number.isFinite(r.remaining) ? { ...r.rule, remaining: r.remaining } : { ...r.rule },
    );
  }

  /** Combines every matching rule that fires (its share rolled, its `times` not used up). */
  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, drop: false };
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!active.pattern.test(path) || active.remaining <= 0) continue;
      const share = rule.share ?? 1;
      if (share < 1 && this.random() >= share) continue;
      active.remaining -= 1;
      decision.latencyMs += rule.latencyMs ?? 0;
      if (rule.dropConnection) decision.drop = true;
      if (decision.status === undefined && rule.status !== undefined) {
        decision.status = rule.status;
        if (rule.retryAfterSeconds !== undefined) decision.retryAfterSeconds = rule.retryAfterSeconds;
        if (rule.plainText) decision.plainText = true;
      }
      if (decision.afterWrite === undefined && rule.afterWrite !== undefined) {
        decision.afterWrite = rule.afterWrite;
        if (rule.landAfterMs !== undefined) decision.landAfterMs = rule.landAfterMs;
      }
      if (decision.cutAfterLines === undefined && rule.cutLogStreamAfterLines !== undefined) {
        decision.cutAfterLines = rule.cutLogStreamAfterLines;
      }
      if (rule.writeStatusFirst) decision.writeStatusFirst = true;
    }
    return decision;
  }
}

/** The error answer for an injected status (429 always carries Retry-After, 1 second by default). */
export function faultError(decision: FaultDecision): SimError {
  const code = decision.status ?? 500;
  const retryAfter = decision.retryAfterSeconds ?? (code === 429 ? 1 : undefined);
  const headers: Record<string, string> =
    retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {};
  const message = code === 429 ? 'too many requests, please retry later' : `injected fault: HTTP ${code}`;
  return new SimError(
    code,
    reasonForCode(code),
    message,
    retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : undefined,
    headers,
  );
}
