/**
 * Places problems on the modal's input blocks. Slack shows an error only under
 * an input block, so a problem no block owns goes to the modal's fallback
 * block, prefixed with the field it is about.
 */
import type { FieldProblem } from '../../changes/errors.js';
import { readBlock, TYPED_SUFFIX } from './state.js';
import type { ModalShell, ViewStateValues } from './types.js';

/** Slack does not document a cap on error text; keep each one readable. */
const ERROR_MAX = 1000;

/** The typed-fallback block when the user typed there (the error belongs under what they typed). */
export function errorBlock(blockId: string, values?: ViewStateValues): string {
  const typed = `${blockId}${TYPED_SUFFIX}`;
  return values && readBlock(values, typed) !== undefined ? typed : blockId;
}

/**
 * What to say when a choice is missing: "Choose an image." under a select,
 * "…, or type image:tag in the field below." only when the form shows that
 * field (the list was cut), and "Type image:tag." under a text field (there
 * was nothing to choose from). The state holds every input of the form, so it
 * says which of the three the person saw.
 */
export function missingChoice(
  values: ViewStateValues,
  blockId: string,
  what: string,
  typeHint: string,
): string {
  const field = values[blockId] ? Object.values(values[blockId])[0] : undefined;
  if (field?.type === 'plain_text_input') return `Type ${typeHint}.`;
  if (values[`${blockId}${TYPED_SUFFIX}`]) return `Choose ${what}, or type ${typeHint} in the field below.`;
  return `Choose ${what}.`;
}

/** Adds `message` to the errors of `blockId`, joining several with "; ". */
export function addError(errors: Record<string, string>, blockId: string, message: string): void {
  const joined = errors[blockId] ? `${errors[blockId]}; ${message}` : message;
  errors[blockId] = joined.length > ERROR_MAX ? `${joined.slice(0, ERROR_MAX - 1)}…` : joined;
}

/** Every problem keyed by the block that shows it. */
export function mapProblems(
  def: Pick<ModalShell, 'blockFor' | 'fallbackBlock'>,
  problems: readonly FieldProblem[],
  values?: ViewStateValues,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of problems) {
    // A form speaks its fields' words, never a command's flags.
    const message = p.formMessage ?? p.message;
    const owner = def.blockFor(p.field, values);
    if (owner) addError(errors, errorBlock(owner, values), message);
    else addError(errors, def.fallbackBlock, `${p.field}: ${message}`);
  }
  return errors;
}
