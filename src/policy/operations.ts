/**
 * The operation ids a policy talks about, and the Target an operation acts on.
 * Rules name operations by these ids (or globs over them, like `formation.*`).
 * The ids come from the operation catalogue (src/operations/catalogue.ts).
 */
import { type Operation, TARGET_FIELDS, type Target, type TargetField } from '../operations/index.js';

export {
  CHANGE_OPERATIONS,
  type ChangeOperation,
  GUARDABLE_OPERATIONS,
  isGuardable,
  isOperation,
  isReadOperation,
  OPERATIONS,
  type Operation,
  READ_OPERATIONS,
  type ReadOperation,
  TARGET_FIELDS,
  type Target,
  type TargetField,
} from '../operations/index.js';

const FIELD_LABELS: Record<TargetField, string> = {
  environment: 'environment',
  branch: 'branch',
  sourceBranch: 'source branch',
  region: 'region',
  formation: 'formation',
  vessel: 'vessel',
  armada: 'armada',
  armadaSet: 'ArmadaSet',
  site: 'site',
  gameServer: 'game server',
};

/** `operation` and its target in words, e.g. `vessel.delete on environment "prod", vessel "web-1"`. */
export function describeRequest(operation: Operation, target: Target): string {
  const parts = TARGET_FIELDS.flatMap((field) => {
    const value = target[field];
    return value === undefined ? [] : [`${FIELD_LABELS[field]} ${JSON.stringify(value)}`];
  });
  return parts.length === 0 ? operation : `${operation} on ${parts.join(', ')}`;
}
