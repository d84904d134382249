/**
 * What the rest of the code reads of the operation catalogue: the ids (all,
 * reads, changes), each operation's descriptor, and the forms' kinds.
 */
import { OPERATION_DESCRIPTORS } from './catalogue.js';
import type { FormDescriptor, HelpForm, OperationDescriptor, TargetField } from './descriptor.js';

export type {
  FlagSpec,
  FormDescriptor,
  HelpForm,
  HelpTopic,
  OperationDescriptor,
  Target,
  TargetField,
} from './descriptor.js';
export { HELP_TOPICS, TARGET_FIELDS } from './descriptor.js';

type Catalogue = typeof OPERATION_DESCRIPTORS;

/** Every operation id a policy rule can name. */
export type Operation = keyof Catalogue;
/** Read-only operations: answered at once, no Change. */
export type ReadOperation = { [K in Operation]: Catalogue[K]['kind'] extends 'read' ? K : never }[Operation];
/** Operations that change something in the hosting API and go through the change engine. */
export type ChangeOperation = Exclude<Operation, ReadOperation>;

/**
 * Reads that show one named thing of an environment: the descriptor says
 * `shows`, and the read's id is a form id of its own (`formation show`), so
 * the grammar's command kind is the id. (`vessels.list` shows a Vessel under
 * the form id `vessel.show`: not one of these.)
 */
export type ShowOperation = {
  [K in ReadOperation]: K extends keyof Catalogue[K]['help']
    ? Catalogue[K] extends { shows: { field: TargetField } }
      ? K
      : never
    : never;
}[ReadOperation];
/** The target field a show read names the thing it shows in. */
export type ShownField<K extends ShowOperation> = Catalogue[K] extends {
  shows: { field: infer F extends TargetField };
}
  ? F
  : never;

/** The operations whose form is a modal, and that form's kind. */
type WithForm = { [K in Operation]: Catalogue[K] extends { form: FormDescriptor } ? K : never }[Operation];
export type FormKind = {
  [K in WithForm]: Catalogue[K] extends { form: { modal: infer M } } ? M : never;
}[WithForm];
/** The forms whose submission becomes a change. */
export type ChangeFormKind = {
  [K in WithForm & ChangeOperation]: Catalogue[K] extends { form: { modal: infer M } } ? M : never;
}[WithForm & ChangeOperation];

/** The operation the form of kind `M` asks for. */
export type OperationOfForm<M extends FormKind> = {
  [K in WithForm]: Catalogue[K] extends { form: { modal: M } } ? K : never;
}[WithForm];

/** Every form id of the command the operations own (the grammar adds its own: help, releases, ...). */
export type OperationFormId = {
  [K in Operation]: keyof Catalogue[K]['help'];
}[Operation];

const ALL = Object.keys(OPERATION_DESCRIPTORS) as Operation[];
/** Read-only operations, in catalogue order. */
export const READ_OPERATIONS = ALL.filter(
  (op) => OPERATION_DESCRIPTORS[op].kind === 'read',
) as ReadOperation[];
/** Change operations, in catalogue order. */
export const CHANGE_OPERATIONS = ALL.filter(
  (op) => OPERATION_DESCRIPTORS[op].kind === 'change',
) as ChangeOperation[];
/** Every operation id, the reads first (as policy messages list them). */
export const OPERATIONS: readonly Operation[] = [...READ_OPERATIONS, ...CHANGE_OPERATIONS];

/** The descriptor of `operation`. */
export function describe(operation: Operation): OperationDescriptor {
  return OPERATION_DESCRIPTORS[operation];
}

/** Whether `value` is a known operation id. */
export function isOperation(value: string): value is Operation {
  return Object.hasOwn(OPERATION_DESCRIPTORS, value);
}

/** Whether `operation` only reads. */
export function isReadOperation(operation: Operation): operation is ReadOperation {
  return OPERATION_DESCRIPTORS[operation].kind === 'read';
}

/** The change operations a policy rule may guard (issue 42): those that roll a build out. */
export const GUARDABLE_OPERATIONS = CHANGE_OPERATIONS.filter((op) => describe(op).guardable === true);

/** Whether a policy rule may guard `operation`. */
export function isGuardable(operation: Operation): boolean {
  return (GUARDABLE_OPERATIONS as readonly Operation[]).includes(operation);
}

/** Each form kind with the operation it asks for, in catalogue order. */
export const FORMS: readonly { kind: FormKind; operation: Operation; form: FormDescriptor }[] =
  OPERATIONS.flatMap((operation) => {
    const form: FormDescriptor | undefined = describe(operation).form;
    return form ? [{ kind: form.modal as FormKind, operation, form }] : [];
  });

/** Every form kind, in catalogue order. */
export const FORM_KINDS = FORMS.map((f) => f.kind);

/** The operation the form `kind` asks for. */
export function operationOfForm(kind: FormKind): Operation {
  const found = FORMS.find((f) => f.kind === kind);
  if (!found) throw new Error(`no operation has the form ${kind}`);
  return found.operation;
}

/** The operations' forms of the command, by form id, in catalogue order. */
export const OPERATION_HELP: readonly (readonly [OperationFormId, HelpForm])[] = ALL.flatMap((operation) =>
  Object.entries(describe(operation).help).map(([id, form]) => [id as OperationFormId, form] as const),
);
