/**
 * The names a modal's metadata must carry (the command that opened it named
 * them). Missing ones mean the modal was opened wrongly; the user sees why.
 */
import { UserError } from '../../errors/user-error.js';
import type { ModalMetadata } from '../ids.js';

/** `meta.environment`, or a UserError saying the form needs one. */
export function needEnvironment(meta: ModalMetadata): string {
  if (!meta.environment) {
    throw new UserError('This form needs an environment; open it from a command that names one.');
  }
  return meta.environment;
}

/** `meta.formation`, or a UserError saying the form needs one. */
export function needFormation(meta: ModalMetadata): string {
  if (!meta.formation) {
    throw new UserError('This form needs a formation; open it from a command that names one.');
  }
  return meta.formation;
}
