/**
 * The zod vocabulary of change requests: each schema reads one field of an
 * untrusted request (from a command, a form, a release button or the store)
 * and, when it is wrong, says what was expected with an example, so the user
 * fixes a request in one go. `parseRequest` runs an operation's schema and
 * throws one ValidationError listing every problem by field. No API call
 * happens before a request validates.
 */
import { z } from 'zod';
import { MAX_ENVIRONMENT_NAME_LENGTH, MAX_REGION_NAME_LENGTH, nameProblem } from '../../api-shapes/names.js';
import { type FieldProblem, ValidationError } from '../errors.js';

const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const IMAGE_NAME = /^[a-z0-9]+([._/-][a-z0-9]+)*$/;
const CPU = /^([1-9][0-9]*)m$/;
const MEMORY = /^([1-9][0-9]*)(Ki|Mi|Gi|Ti)$/;

const absent = (v: unknown) => v === undefined || v === null;

/** Required text, trimmed; `what` ("a vessel name") and `example` make the messages. */
export function text(what: string, example: string) {
  const missing = `missing: expected ${what}, e.g. ${example}`;
  return z
    .string({ error: (iss) => (absent(iss.input) ? missing : `expected ${what} as text, e.g. ${example}`) })
    .trim()
    .min(1, { error: missing, abort: true });
}

/** Optional text, trimmed; empty means absent. */
export function optionalText(what: string, example: string, max = 1000) {
  return z
    .string({ error: `expected ${what} as text, e.g. ${example}` })
    .trim()
    .max(max, { error: (iss) => `must be at most ${max} characters (got ${String(iss.input).length})` })
    .nullish()
    .transform((v) => (v ? v : undefined));
}

/** Required text that must also pass `problemOf` (which names what is wrong with it). */
function checked(what: string, example: string, problemOf: (v: string) => string | undefined) {
  return text(what, example).superRefine((v, ctx) => {
    const problem = problemOf(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** An object name (DNS-1123): a vessel, formation, branch, container, region type... */
export function name(what: string, example: string, maxLength?: number) {
  return checked(`a ${what} name`, example, (v) => {
    const problem = nameProblem(v, maxLength);
    return problem ? `"${v}" is not a valid ${what} name: it ${problem}; e.g. ${example}` : undefined;
  });
}

/** An optional object name; empty means absent. */
export function optionalName(what: string, example: string) {
  return z
    .union([z.literal(''), name(what, example)])
    .nullish()
    .transform((v) => (v ? v : undefined));
}

/** An environment name: a name of at most 4 characters on the real platform. */
export const environmentName = () => name('environment', 'dev', MAX_ENVIRONMENT_NAME_LENGTH);

export const regionName = () => name('region', 'eu-central', MAX_REGION_NAME_LENGTH);

/** A human-readable image name, e.g. game-server. */
export const imageName = () =>
  checked('an image name', 'game-server', (v) =>
    IMAGE_NAME.test(v)
      ? undefined
      : `"${v}" is not a valid image name: lowercase letters, digits and . _ / -; e.g. game-server`,
  );

export const tag = () =>
  checked('an image tag', '1.2.0', (v) =>
    TAG.test(v)
      ? undefined
      : `"${v}" is not a valid tag: letters, digits, '_', '.', '-', at most 128; e.g. 1.2.0`,
  );

/** Optional text that, when given, must match `pattern`. */
function optionalPattern(what: string, example: string, pattern: RegExp, problem: (v: string) => string) {
  return optionalText(what, example).superRefine((v, ctx) => {
    if (v !== undefined && !pattern.test(v)) ctx.addIssue({ code: 'custom', message: problem(v) });
  });
}

export const cpu = () =>
  optionalPattern(
    'a CPU quantity',
    '250m',
    CPU,
    (v) => `"${v}" is not a CPU quantity: use millicores with an m suffix, e.g. 250m`,
  );

export const memory = () =>
  optionalPattern(
    'a memory quantity',
    '512Mi',
    MEMORY,
    (v) => `"${v}" is not a memory quantity: use a binary unit (Ki, Mi, Gi, Ti), e.g. 512Mi`,
  );

/** A container port's range, and its words: the form's refusal and the request's say the same (issue 30, 6). */
export const PORT_RANGE = { min: 1, max: 65535 } as const;
export const PORT_RANGE_WORDS = `a port number from ${PORT_RANGE.min} to ${PORT_RANGE.max}`;

/** Whether `n` is a container port number. */
export const isPortNumber = (n: unknown): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= PORT_RANGE.min && n <= PORT_RANGE.max;

/** A port number, given as a number or as digits (from a command or a form). */
export const port = () =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (isPortNumber(n)) return n;
    ctx.addIssue({
      code: 'custom',
      message: `expected ${PORT_RANGE_WORDS}, e.g. 7777 (got ${JSON.stringify(v)})`,
    });
    return z.NEVER;
  });

/**
 * One of `allowed`, matched whatever its case; absent or empty gives
 * `fallback` when there is one.
 */
export function oneOf<T extends string>(allowed: readonly T[], fallback?: T) {
  const problem = (v: unknown) => `expected one of ${allowed.join(', ')} (got ${JSON.stringify(v ?? null)})`;
  return z
    .string({ error: (iss) => problem(iss.input) })
    .trim()
    .nullish()
    .transform((v, ctx) => {
      if (!v && fallback !== undefined) return fallback;
      const match = allowed.find((a) => typeof v === 'string' && a.toLowerCase() === v.toLowerCase());
      if (match) return match;
      ctx.addIssue({ code: 'custom', message: problem(v) });
      return z.NEVER;
    });
}

/** An optional list of text values (container args, a command, locations). */
export function textList(example: string) {
  return z
    .custom<string[]>((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), {
      error: `expected a list of text values, e.g. ${example}`,
    })
    .nullish()
    .transform((v) => v ?? undefined);
}

/** A list of at least `min` objects, each read by `item`; missing says how many are expected. */
export function requiredList<T extends z.ZodType>(item: T, opts: { min: number; example: string }) {
  const missing = `missing: expected at least ${opts.min}, e.g. ${opts.example}`;
  return z
    .array(item, { error: (iss) => (absent(iss.input) ? missing : `expected a list, e.g. ${opts.example}`) })
    .min(opts.min, { error: `expected at least ${opts.min}, e.g. ${opts.example}` });
}

/** An optional list of objects, each read by `item`; absent is empty. */
export function list<T extends z.ZodType>(item: T, opts: { example: string }) {
  return z
    .array(item, { error: `expected a list, e.g. ${opts.example}` })
    .nullish()
    .transform((v) => v ?? []);
}

/** An object of `shape`; not an object says so. */
export function record<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape, { error: 'expected an object' });
}

/** The first value that appears twice in `values`, if any. */
export function firstDuplicate(values: readonly string[]): string | undefined {
  return values.find((v, i) => values.indexOf(v) !== i);
}

/** `containers[0].cpu` from zod's path. */
function fieldOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

/** Reads `input` with `schema`, or throws one ValidationError naming every problem's field. */
export function parseRequest<Out>(schema: z.ZodType<Out>, input: unknown): Out {
  // Anything but an object reads as an empty request: every field is then reported missing.
  const result = schema.safeParse(
    typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {},
  );
  if (result.success) return result.data;
  const problems: FieldProblem[] = result.error.issues.map((issue) => {
    const formMessage = issue.code === 'custom' ? issue.params?.formMessage : undefined;
    return {
      field: fieldOf(issue.path),
      message: issue.message,
      ...(typeof formMessage === 'string' ? { formMessage } : {}),
    };
  });
  throw new ValidationError(problems);
}
