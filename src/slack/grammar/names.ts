/**
 * Names typed as command arguments are checked here, before any API call, by
 * the platform's naming rule (api-shapes/names.ts). A name such as `.` or `..`
 * would otherwise reach the request path, where URL parsing resolves it to a
 * different resource, and the user would get "internal error".
 */
import { MAX_REGION_NAME_LENGTH, nameProblem } from '../../api-shapes/names.js';

interface NameRule {
  what: string;
  maxLength?: number;
  example: string;
}

// Branches are left out: users may type a branch's display name ("Production"),
// which the branch resolver matches; only dot-only words are refused for them.
const RULES = new Map<string, NameRule>([
  // No length limit here: `vessels staging` is answered like `vessels stag`, with the environments that exist.
  ['<env>', { what: 'environment', example: 'dev' }],
  ['<vessel>', { what: 'vessel', example: 'lobby-3' }],
  ['<formation>', { what: 'formation', example: 'lobby' }],
  ['<region>', { what: 'region', maxLength: MAX_REGION_NAME_LENGTH, example: 'eu-central' }],
  ['<type>', { what: 'region type', example: 'baremetal' }],
  ['<armada>', { what: 'armada', example: 'duel' }],
  ['<armadaset>', { what: 'ArmadaSet', example: 'arena' }],
]);

const BRANCH_PLACEHOLDERS = new Set(['<branch>', '<source-branch>', '<target-branch>']);

/** The problem with `value` given for `placeholder` (e.g. `<env>`), or undefined when it is fine. */
export function argumentNameProblem(placeholder: string, value: string): string | undefined {
  const rule = RULES.get(placeholder);
  if (rule) {
    // Case is left to the engine, which keeps what was typed and explains it.
    const problem = nameProblem(value.toLowerCase(), rule.maxLength);
    return problem && `not a valid ${rule.what} name: it ${problem}; e.g. ${rule.example}`;
  }
  if (BRANCH_PLACEHOLDERS.has(placeholder) && /^\.+$/.test(value)) {
    return `not a valid branch name: it ${nameProblem(value)}; e.g. dev`;
  }
  return undefined;
}
