/**
 * Reading a policy: YAML text -> validated file -> compiled rules -> Policy.
 * All problems (YAML syntax and schema) are collected and thrown together.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { formatShorthand } from '../format/duration.js';
import { count } from '../format/english.js';
import { silentLogger } from '../runtime/logger.js';
import { createPolicy } from './create-policy.js';
import { DEFAULT_POLICY_SOURCE, DEFAULT_POLICY_SUMMARY, DEFAULT_POLICY_YAML } from './default-policy.js';
import { PolicyError } from './errors.js';
import { compileRules, type Rule } from './evaluate.js';
import { type FreezeWindowFile, WEEKDAYS } from './freeze-schema.js';
import { globMatcher } from './glob.js';
import { formatIssues, isChannelId, policyFileSchema } from './schema.js';
import type { FreezeWindow, Policy, PolicyContext } from './types.js';

/** Parses and validates policy YAML; throws PolicyError listing every problem. */
export function parsePolicy(yamlText: string, ctx: PolicyContext, source = 'inline policy'): Policy {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    throw new PolicyError(
      source,
      doc.errors.map((e) => {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        return `line ${line}, column ${col}: ${e.message}`;
      }),
    );
  }
  const raw: unknown = doc.toJS();
  if (raw === null || raw === undefined)
    throw new PolicyError(source, ['the policy is empty: expected a `rules:` list']);
  const parsed = policyFileSchema.safeParse(raw);
  if (!parsed.success) throw new PolicyError(source, formatIssues(parsed.error.issues));
  const rules = compileRules(parsed.data);
  if (rules.some((r) => r.channels?.some((c) => !isChannelId(c))) && !ctx.resolveChannelName) {
    (ctx.logger ?? silentLogger).warn(
      'policy lists channels by name but no channel-name resolver was given',
      {
        source,
      },
    );
  }
  return createPolicy(rules, ctx, source, summarize(rules), parsed.data.workspaces, {
    freezeWindows: (parsed.data.freezes ?? []).map(compileWindow),
    ...(parsed.data.break_glass ? { breakGlass: parsed.data.break_glass } : {}),
  });
}

/**
 * Loads the policy at `path`, or the built-in default when `path` is undefined
 * (logged at warn, since it lets anyone request changes).
 */
export async function loadPolicy(path: string | undefined, ctx: PolicyContext): Promise<Policy> {
  const logger = ctx.logger ?? silentLogger;
  if (path === undefined) {
    const policy = parsePolicy(DEFAULT_POLICY_YAML, ctx, DEFAULT_POLICY_SOURCE);
    logger.warn(`no HARBOR_POLICY set: using the built-in default policy (${DEFAULT_POLICY_SUMMARY})`);
    return policy;
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new PolicyError(path, [`can not read the policy file: ${why}`]);
  }
  const policy = parsePolicy(text, ctx, path);
  logger.info('loaded policy', { source: path, summary: policy.summary });
  return policy;
}

function summarize(rules: readonly Rule[]): string {
  const approvals = rules.filter((r) => r.approval.mode === 'approval').length;
  const expiries = [...new Set(rules.map((r) => formatShorthand(r.expiresInMs)))].join('/');
  return `${count(rules.length, 'rule')}, ${approvals} needing approval, requests expire after ${expiries}`;
}

/** A validated window as the policy hands it out (times as numbers, days as 0..6, globs compiled). */
export function compileWindow(w: FreezeWindowFile): FreezeWindow {
  const covers = globMatcher(w.environments);
  return {
    name: w.name,
    environments: [...w.environments],
    days: w.days.map((d) => WEEKDAYS.indexOf(d)),
    from: clock(w.from),
    to: clock(w.to),
    timezone: w.timezone,
    ...(w.reason ? { reason: w.reason } : {}),
    covers,
  };
}

function clock(text: string): { hour: number; minute: number } {
  const [hour, minute] = text.split(':').map(Number) as [number, number];
  return { hour, minute };
}
