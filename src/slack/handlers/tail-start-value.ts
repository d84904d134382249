/**
 * Reads a "Tail logs" button's value. A signature proves the click came
 * through Slack, not that the value is the one the bot drew: anyone who can
 * click can send any string. So every name is checked as the grammar checks
 * a typed one, and the user is told which part is wrong, before the value
 * reaches the policy, the API or the store.
 */
import { environmentNameProblem, nameProblem } from '../../api-shapes/names.js';
import type { TailStartValue } from '../ids.js';

/** The value, or why it cannot be followed (a sentence for the clicker). */
export type ParsedTailStart = { ok: true; value: TailStartValue } | { ok: false; problem: string };

/** Longest release id the bot draws (uuid-like); longer is forged. */
const MAX_RELEASE_ID_LENGTH = 100;

/** Parses and validates a TailStartValue. */
export function parseTailStartValue(text: string): ParsedTailStart {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return refuse('it is not JSON');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return refuse('it is not a JSON object');
  const v = raw as Record<string, unknown>;
  if (typeof v.environment !== 'string' || v.environment === '') return refuse('it names no environment');
  if (typeof v.vessel !== 'string' || v.vessel === '') return refuse('it names no vessel');
  const problem =
    named('environment', v.environment, environmentNameProblem(v.environment)) ??
    named('vessel', v.vessel, nameProblem(v.vessel)) ??
    optionalName('container', v.container) ??
    releaseProblem(v.releaseId);
  if (problem) return refuse(problem);
  return {
    ok: true,
    value: {
      environment: v.environment,
      vessel: v.vessel,
      ...(typeof v.container === 'string' && v.container ? { container: v.container } : {}),
      ...(typeof v.releaseId === 'string' && v.releaseId ? { releaseId: v.releaseId } : {}),
    },
  };
}

function refuse(problem: string): ParsedTailStart {
  return { ok: false, problem };
}

function named(what: string, value: string, problem: string | undefined): string | undefined {
  return problem ? `its ${what} \`${clip(value)}\` is not valid (${problem})` : undefined;
}

function optionalName(what: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') return `its ${what} is not a string`;
  return named(what, value, nameProblem(value));
}

function releaseProblem(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') return 'its release id is not a string';
  if (value.length > MAX_RELEASE_ID_LENGTH || !/^[A-Za-z0-9_.-]+$/.test(value))
    return `its release id \`${clip(value)}\` is not one the bot gives`;
  return undefined;
}

/** Keeps a forged value from filling the reply. */
function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
