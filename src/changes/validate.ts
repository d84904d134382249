/**
 * Field validators for change requests. Each returns the cleaned value or
 * records a problem that names the field, what was expected and an example;
 * `Fields.done()` throws one ValidationError listing every problem, so the user
 * fixes a request in one go. No API call happens before a request validates.
 */
import { MAX_ENVIRONMENT_NAME_LENGTH, MAX_REGION_NAME_LENGTH, nameProblem } from '../gamefabric/names.js';
import { PORT_POLICIES, PORT_PROTOCOLS, SCHEDULING_STRATEGIES } from '../gamefabric/resources.js';
import { type FieldProblem, ValidationError } from './errors.js';

const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const IMAGE_NAME = /^[a-z0-9]+([._/-][a-z0-9]+)*$/;
const CPU = /^([1-9][0-9]*)m$/;
const MEMORY = /^([1-9][0-9]*)(Ki|Mi|Gi|Ti)$/;

type Raw = Record<string, unknown>;

/** Collects problems while reading fields out of an untrusted object. */
export class Fields {
  readonly problems: FieldProblem[] = [];
  constructor(
    readonly raw: Raw,
    private readonly prefix = '',
  ) {}

  private path(field: string): string {
    return this.prefix ? `${this.prefix}.${field}` : field;
  }

  problem(field: string, message: string): undefined {
    this.problems.push({ field: this.path(field), message });
    return undefined;
  }

  private present(field: string): unknown {
    const v = this.raw[field];
    return typeof v === 'string' ? v.trim() : v;
  }

  /** A required string; `what` describes it for the message. */
  string(field: string, what: string, example: string): string | undefined {
    const v = this.present(field);
    if (v === undefined || v === null || v === '')
      return this.problem(field, `missing: expected ${what}, e.g. ${example}`);
    if (typeof v !== 'string') return this.problem(field, `expected ${what} as text, e.g. ${example}`);
    return v;
  }

  optionalString(field: string, what: string, example: string, max = 1000): string | undefined {
    const v = this.present(field);
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') return this.problem(field, `expected ${what} as text, e.g. ${example}`);
    if (v.length > max) return this.problem(field, `must be at most ${max} characters (got ${v.length})`);
    return v;
  }

  /** An object name (DNS-1123). */
  name(field: string, what: string, example: string, maxLength?: number): string | undefined {
    const v = this.string(field, `a ${what} name`, example);
    if (v === undefined) return undefined;
    const problem = nameProblem(v, maxLength);
    if (problem)
      return this.problem(field, `"${v}" is not a valid ${what} name: it ${problem}; e.g. ${example}`);
    return v;
  }

  optionalName(field: string, what: string, example: string): string | undefined {
    return this.present(field) === undefined || this.present(field) === ''
      ? undefined
      : this.name(field, what, example);
  }

  /** An environment name: a name of at most 4 characters on the real platform. */
  environmentName(field: string): string | undefined {
    return this.name(field, 'environment', 'dev', MAX_ENVIRONMENT_NAME_LENGTH);
  }

  regionName(field: string): string | undefined {
    return this.name(field, 'region', 'eu-central', MAX_REGION_NAME_LENGTH);
  }

  /** A human-readable image name, e.g. game-server. */
  imageName(field: string): string | undefined {
    const v = this.string(field, 'an image name', 'game-server');
    if (v !== undefined && !IMAGE_NAME.test(v)) {
      return this.problem(
        field,
        `"${v}" is not a valid image name: lowercase letters, digits and . _ / -; e.g. game-server`,
      );
    }
    return v;
  }

  tag(field: string): string | undefined {
    const v = this.string(field, 'an image tag', '1.2.0');
    if (v !== undefined && !TAG.test(v)) {
      return this.problem(
        field,
        `"${v}" is not a valid tag: letters, digits, '_', '.', '-', at most 128; e.g. 1.2.0`,
      );
    }
    return v;
  }

  cpu(field: string): string | undefined {
    const v = this.optionalString(field, 'a CPU quantity', '250m');
    if (v !== undefined && !CPU.test(v)) {
      return this.problem(field, `"${v}" is not a CPU quantity: use millicores with an m suffix, e.g. 250m`);
    }
    return v;
  }

  memory(field: string): string | undefined {
    const v = this.optionalString(field, 'a memory quantity', '512Mi');
    if (v !== undefined && !MEMORY.test(v)) {
      return this.problem(
        field,
        `"${v}" is not a memory quantity: use a binary unit (Ki, Mi, Gi, Ti), e.g. 512Mi`,
      );
    }
    return v;
  }

  port(field: string): number | undefined {
    const v = this.present(field);
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
      return this.problem(
        field,
        `expected a port number from 1 to 65535, e.g. 7777 (got ${JSON.stringify(v ?? null)})`,
      );
    }
    return n;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], fallback?: T): T | undefined {
    const v = this.present(field);
    if ((v === undefined || v === '') && fallback !== undefined) return fallback;
    const match = allowed.find((a) => typeof v === 'string' && a.toLowerCase() === v.toLowerCase());
    if (!match) {
      return this.problem(field, `expected one of ${allowed.join(', ')} (got ${JSON.stringify(v ?? null)})`);
    }
    return match;
  }

  portPolicy(field: string) {
    return this.oneOf(field, PORT_POLICIES, 'Dynamic');
  }

  protocol(field: string) {
    return this.oneOf(field, PORT_PROTOCOLS, 'UDP');
  }

  scheduling(field: string) {
    return this.oneOf(field, SCHEDULING_STRATEGIES);
  }

  /** A list of strings (e.g. container args); absent -> undefined. */
  stringList(field: string, example: string): string[] | undefined {
    const v = this.raw[field];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
      return this.problem(field, `expected a list of text values, e.g. ${example}`);
    }
    return v;
  }

  /** Each object in a list, read with its own Fields (problems are prefixed `field[i]`). */
  list<T>(field: string, read: (f: Fields) => T | undefined, opts: { min?: number; example: string }): T[] {
    const v = this.raw[field];
    if (v === undefined || v === null) {
      if ((opts.min ?? 0) > 0)
        this.problem(field, `missing: expected at least ${opts.min}, e.g. ${opts.example}`);
      return [];
    }
    if (!Array.isArray(v)) {
      this.problem(field, `expected a list, e.g. ${opts.example}`);
      return [];
    }
    if (v.length < (opts.min ?? 0))
      this.problem(field, `expected at least ${opts.min}, e.g. ${opts.example}`);
    const out: T[] = [];
    v.forEach((item, i) => {
      const sub = new Fields(isRaw(item) ? item : {}, this.path(`${field}[${i}]`));
      if (!isRaw(item)) sub.problem('', 'expected an object');
      const value = read(sub);
      this.problems.push(...sub.problems);
      if (value !== undefined) out.push(value);
    });
    return out;
  }

  /** Throws a ValidationError if any problem was recorded. */
  done(): void {
    if (this.problems.length > 0) throw new ValidationError(this.problems);
  }
}

function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Starts reading an untrusted request object. */
export function fieldsOf(raw: unknown): Fields {
  return new Fields(isRaw(raw) ? raw : {});
}

/** The first value that appears twice in `values`, if any. */
export function firstDuplicate(values: readonly string[]): string | undefined {
  return values.find((v, i) => values.indexOf(v) !== i);
}
