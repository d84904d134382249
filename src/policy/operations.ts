/**
 * The operation ids a policy talks about, and the Target an operation acts on.
 * Rules name operations by these ids (or globs over them, like `formation.*`).
 */

/** Read-only operations: answered at once, no Change. */
export const READ_OPERATIONS = [
  'images.list',
  'vessels.list',
  'formation.show',
  'region.show',
  'logs.read',
  'armadas.list',
  'armada.show',
  'armadaset.show',
] as const;

/** Operations that change something in the hosting API and go through the change engine. */
export const CHANGE_OPERATIONS = [
  'image.promote',
  'vessel.create',
  'vessel.delete',
  'formation.add',
  'formation.remove',
  'region.create',
  'region.scheduling',
  'armada.scale',
  'armadaset.scale',
  'armada.image',
  'armadaset.image',
  'change.rollback',
] as const;

/** Every operation id a policy rule can name. */
export const OPERATIONS = [...READ_OPERATIONS, ...CHANGE_OPERATIONS] as const;

export type ReadOperation = (typeof READ_OPERATIONS)[number];
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];
export type Operation = (typeof OPERATIONS)[number];

/** Whether `value` is a known operation id. */
export function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}

/** Whether `operation` only reads. */
export function isReadOperation(operation: Operation): operation is ReadOperation {
  return (READ_OPERATIONS as readonly string[]).includes(operation);
}

/**
 * What an operation acts on. For `image.promote`, `branch` is the target branch
 * and `sourceBranch` the branch the image is copied from.
 */
export interface Target {
  environment?: string;
  branch?: string;
  sourceBranch?: string;
  region?: string;
  formation?: string;
  vessel?: string;
  armada?: string;
  armadaSet?: string;
}

/** Target fields in the order they are described in messages. */
export const TARGET_FIELDS = [
  'environment',
  'branch',
  'sourceBranch',
  'region',
  'formation',
  'vessel',
  'armada',
  'armadaSet',
] as const;

export type TargetField = (typeof TARGET_FIELDS)[number];

const FIELD_LABELS: Record<TargetField, string> = {
  environment: 'environment',
  branch: 'branch',
  sourceBranch: 'source branch',
  region: 'region',
  formation: 'formation',
  vessel: 'vessel',
  armada: 'armada',
  armadaSet: 'ArmadaSet',
};

/** `operation` and its target in words, e.g. `vessel.delete on environment "prod", vessel "web-1"`. */
export function describeRequest(operation: Operation, target: Target): string {
  const parts = TARGET_FIELDS.flatMap((field) => {
    const value = target[field];
    return value === undefined ? [] : [`${FIELD_LABELS[field]} ${JSON.stringify(value)}`];
  });
  return parts.length === 0 ? operation : `${operation} on ${parts.join(', ')}`;
}
