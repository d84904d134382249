/**
 * The shape of a policy file, validated with zod. Every problem is reported as
 * `path: message` (e.g. `rules[2].approval.required: expected a positive integer`)
 * so one run of the validator tells the author everything to fix.
 */
import { z } from 'zod';
import { noun } from '../format/english.js';
import { DURATION_FORMS, parseDuration } from './duration.js';
import { freezeWindowsSchema } from './freeze-schema.js';
import { globMatcher } from './glob.js';
import { MAX_GUARD_MS, MAX_GUARD_WORDS } from './guard-window.js';
import { GUARDABLE_OPERATIONS, OPERATIONS, TARGET_FIELDS } from './operations.js';

const USER_ID = /^[UW][A-Z0-9]{2,}$/;
const GROUP_ID = /^S[A-Z0-9]{2,}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;
const CHANNEL_NAME = /^#?[a-z0-9][a-z0-9_-]{0,79}$/;
const WORKSPACE_ID = /^[TE][A-Z0-9]{2,}$/;

/** Whether a channel entry is a Slack channel id (else it is a name). */
export function isChannelId(entry: string): boolean {
  return CHANNEL_ID.test(entry);
}

/** A string, or a non-empty list of strings; a single string is read as a list of one. */
function oneOrMany<T extends z.ZodType<string>>(item: T, what: string, whatPlural: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z
      .array(item, { error: `expected ${what} or a list of ${whatPlural}` })
      .min(1, { error: `expected at least one ${what}` }),
  );
}

const operationPattern = z
  .string({ error: 'expected an operation id or glob' })
  .refine((pattern) => OPERATIONS.some(globMatcher([pattern])), {
    error: (issue) =>
      `${JSON.stringify(issue.input)} matches no operation (known: ${OPERATIONS.join(', ')}; globs like formation.* or *)`,
  });

const targetPattern = z
  .string({ error: 'expected a name or glob' })
  .min(1, { error: 'expected a name or glob' });

const targetSchema = z.strictObject(
  Object.fromEntries(
    TARGET_FIELDS.map((field) => [
      field,
      oneOrMany(targetPattern, 'name or glob', 'names or globs').optional(),
    ]),
  ),
) as z.ZodType<Partial<Record<(typeof TARGET_FIELDS)[number], string[]>>>;

const userId = z
  .string({ error: 'expected a Slack user id' })
  .refine((id) => id === '*' || USER_ID.test(id), {
    error: (issue) =>
      `expected a Slack user id like U012AB3CDE or '*' for anyone, got ${JSON.stringify(issue.input)}`,
  });

const groupId = z.string({ error: 'expected a Slack user group id' }).refine((id) => GROUP_ID.test(id), {
  error: (issue) => `expected a Slack user group id like S012AB3CDE, got ${JSON.stringify(issue.input)}`,
});

const channel = z
  .string({ error: 'expected a channel id or name' })
  .refine((entry) => CHANNEL_ID.test(entry) || CHANNEL_NAME.test(entry), {
    error: (issue) =>
      `expected a channel id like C012AB3CDE or a lowercase name like #deploys, got ${JSON.stringify(issue.input)}`,
  });

/** Users and groups; at least one entry, since an empty list would silently mean nobody. */
function audience(role: string) {
  return z
    .strictObject({ users: z.array(userId).optional(), groups: z.array(groupId).optional() })
    .refine((a) => (a.users?.length ?? 0) + (a.groups?.length ?? 0) > 0, {
      error: `expected at least one user or group (users: ['*'] for anyone${role === 'requesters' ? ', or leave requesters out' : ''})`,
    })
    .transform((a) => ({ users: a.users ?? [], groups: a.groups ?? [] }));
}

const workspaceId = z
  .string({ error: 'expected a Slack workspace id' })
  .refine((id) => WORKSPACE_ID.test(id), {
    error: (issue) =>
      `expected a Slack workspace (team) id like T012AB3CDE, or an Enterprise Grid org id like E012AB3CDE, got ${JSON.stringify(issue.input)}`,
  });

const duration = z
  .string({
    error: (issue) => `expected a duration like ${DURATION_FORMS}, got ${JSON.stringify(issue.input)}`,
  })
  .superRefine((text, ctx) => {
    const parsed = parseDuration(text);
    if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
  });

const positiveInt = z
  .int({ error: 'expected a positive integer' })
  .positive({ error: 'expected a positive integer' });

const approvalSchema = z
  .strictObject({
    mode: z.enum(['confirm', 'approval'], { error: "expected 'confirm' or 'approval'" }).optional(),
    required: positiveInt.optional(),
    approvers: audience('approvers').optional(),
    allowSelfApproval: z.boolean({ error: 'expected true or false' }).optional(),
  })
  .superRefine((approval, ctx) => {
    if (approval.mode === 'confirm') {
      for (const key of ['required', 'approvers', 'allowSelfApproval'] as const) {
        if (approval[key] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [key], message: "not used with mode 'confirm'" });
        }
      }
      return;
    }
    if (approval.required === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['required'],
        message: "expected a positive integer (how many distinct approvers), or use mode: 'confirm'",
      });
    }
    if (approval.approvers === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['approvers'],
        message: "expected the users and/or groups who may approve (users: ['*'] for anyone)",
      });
    }
    const { required, approvers } = approval;
    if (
      required !== undefined &&
      approvers &&
      approvers.groups.length === 0 &&
      !approvers.users.includes('*')
    ) {
      const distinct = new Set(approvers.users).size;
      if (distinct < required) {
        ctx.addIssue({
          code: 'custom',
          path: ['required'],
          message: `needs ${required} distinct approvers but approvers lists only ${distinct} user(s) and no group`,
        });
      }
    }
  });

/** `guard: {within: 15m}` (issue 42): roll a build out under watch, rolled back automatically on trouble. */
const guardSchema = z.strictObject(
  {
    within: duration.superRefine((text, ctx) => {
      const parsed = parseDuration(text);
      if ('ms' in parsed && parsed.ms > MAX_GUARD_MS)
        ctx.addIssue({
          code: 'custom',
          message: `expected ${MAX_GUARD_WORDS}, got ${JSON.stringify(text)}`,
        });
    }),
    optional: z.boolean({ error: 'expected true or false' }).optional(),
  },
  { error: 'expected {within: 15m} or {within: 15m, optional: true}' },
);

const ruleSchema = z
  .strictObject({
    name: z
      .string({ error: 'expected a rule name' })
      .trim()
      .min(1, { error: 'expected a non-empty rule name' })
      .optional(),
    operations: oneOrMany(operationPattern, 'operation id or glob', 'operation ids or globs'),
    target: targetSchema.optional(),
    requesters: audience('requesters').optional(),
    channels: z
      .array(channel, { error: 'expected a list of channel ids or names' })
      .min(1, { error: 'expected at least one channel (or leave channels out to allow any)' })
      .optional(),
    approval: approvalSchema.optional(),
    expires: duration.optional(),
    guard: guardSchema.optional(),
  })
  .superRefine((rule, ctx) => {
    // A guard on a rule that governs no rollout would never guard anything: said at start, not silently ignored.
    if (rule.guard && !GUARDABLE_OPERATIONS.some(globMatcher(rule.operations)))
      ctx.addIssue({
        code: 'custom',
        path: ['guard'],
        message: `guards only roll-outs of a build (${GUARDABLE_OPERATIONS.join(', ')}), and this rule's operations match none of them`,
      });
  });

/**
 * `break_glass:` who may let a change through a freeze (issue 41). Never the
 * requester: breaking a freeze takes a second person, whatever the rules say.
 */
const breakGlassSchema = z
  .strictObject(
    { required: positiveInt, approvers: audience('approvers') },
    { error: 'expected { required: 1, approvers: { groups: [...], users: [...] } }' },
  )
  .superRefine(({ required, approvers }, ctx) => {
    // Read as written (the audience's defaults may not be filled in yet when this runs).
    const groups = approvers.groups ?? [];
    const users = approvers.users ?? [];
    if (groups.length > 0 || users.includes('*')) return;
    const distinct = new Set(users).size;
    if (distinct < required)
      ctx.addIssue({
        code: 'custom',
        path: ['required'],
        message: `needs ${required} distinct approvers but approvers lists only ${distinct} user(s) and no group`,
      });
  });

export const policyFileSchema = z
  .strictObject(
    {
      version: z.literal(1, { error: 'expected 1 (the only policy format so far)' }).optional(),
      defaults: z.strictObject({ expires: duration.optional() }).optional(),
      workspaces: z
        .array(workspaceId, { error: 'expected a list of Slack workspace ids' })
        .min(1, { error: 'expected at least one workspace id (or leave workspaces out)' })
        .optional(),
      freezes: freezeWindowsSchema.optional(),
      break_glass: breakGlassSchema.optional(),
      rules: z
        .array(ruleSchema, { error: 'expected a list of rules' })
        .min(1, { error: 'expected at least one rule (with no rules, everything is denied)' }),
    },
    { error: 'expected a mapping with a `rules:` list' },
  )
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.rules.forEach((rule, index) => {
      if (rule.name === undefined) return;
      const first = seen.get(rule.name);
      if (first === undefined) seen.set(rule.name, index);
      else {
        ctx.addIssue({
          code: 'custom',
          path: ['rules', index, 'name'],
          message: `duplicate rule name ${JSON.stringify(rule.name)} (also rules[${first}])`,
        });
      }
    });
  });

export type PolicyFile = z.output<typeof policyFileSchema>;

/** Turns zod issues into `path: message` lines (`rules[2].approval.required: expected ...`). */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path);
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown ${noun(issue.keys.length, 'key')} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
        : issue.message.replace(/^Invalid input: /, '');
    return path ? `${path}: ${message}` : message;
  });
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
