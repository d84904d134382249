/**
 * The "where" step of a modal opened without a place. A release thread's
 * buttons name no environment or formation, so the modal asks for them first
 * (type an environment and press Enter: its formations are listed; pick one:
 * the rest of the form loads). The metadata keeps only what the opener
 * named; what the user picked lives in the view's state, so every reload and
 * the submission read it from there and the user can change it any time.
 */
import type { KnownBlock } from '@slack/types';
import type { ModalMetadata } from '../ids.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock } from './blocks.js';
import { readBlock, readChoice, TYPED_SUFFIX } from './state.js';
import type { ModalDeps, ViewStateValues } from './types.js';

/** Block ids of the where step. */
export const WHERE_BLOCKS = { environment: 'where.environment', formation: 'where.formation' } as const;

/** What a modal must know before the rest of it can load: an environment, or a formation (in one). */
export type WhereNeed = 'environment' | 'formation';

/** The where blocks to show, the metadata completed with the user's picks, and whether the place is known. */
export interface Where {
  meta: ModalMetadata;
  blocks: KnownBlock[];
  known: boolean;
}

/** Whether a modal has a where step: every modal that needs a place shows its environment as a select. */
export function asksWhere(_meta: ModalMetadata, need: WhereNeed | undefined): need is WhereNeed {
  return need !== undefined;
}

/** The environment the user chose in the select, else the one the opener named. */
function chosenEnvironment(meta: ModalMetadata, values: ViewStateValues): string | undefined {
  return readBlock(values, WHERE_BLOCKS.environment) ?? meta.environment;
}

/** The formation the opener named, while the user keeps the opener's environment (another one has its own). */
function namedFormation(meta: ModalMetadata, environment: string | undefined): string | undefined {
  return environment === meta.environment ? meta.formation : undefined;
}

/** The metadata completed with the place picked in the where blocks; no API call (for submissions). */
export function placeOf(
  meta: ModalMetadata,
  need: WhereNeed | undefined,
  values: ViewStateValues,
): ModalMetadata {
  if (!asksWhere(meta, need)) return meta;
  const environment = chosenEnvironment(meta, values);
  const formation =
    need === 'formation'
      ? (namedFormation(meta, environment) ?? readChoice(values, WHERE_BLOCKS.formation))
      : meta.formation;
  const { formation: _dropped, ...rest } = meta;
  return { ...rest, ...(environment ? { environment } : {}), ...(formation ? { formation } : {}) };
}

/** The where block that shows a problem with `field`, when the submitted view has one. */
export function whereBlockFor(field: string, values?: ViewStateValues): string | undefined {
  if (field !== 'environment' && field !== 'formation') return undefined;
  const id = WHERE_BLOCKS[field];
  return values && (id in values || `${id}${TYPED_SUFFIX}` in values) ? id : undefined;
}

/**
 * The where step: the environment as a select of the API's environments (the
 * configured ones when the API will not list them)
 * (choosing another reloads the form, so lists that depend on it follow),
 * then, when a formation is needed and the opener named none for this
 * environment, that environment's formations. An environment or formation
 * that does not exist is said so, not thrown.
 */
export async function askWhere(
  meta: ModalMetadata,
  need: WhereNeed | undefined,
  deps: ModalDeps,
  values: ViewStateValues,
): Promise<Where> {
  if (!asksWhere(meta, need)) return { meta, blocks: [], known: true };
  const blocks: KnownBlock[] = [];
  const environment = chosenEnvironment(meta, values);
  // The API's environments; the configured ones when it will not say (no permission, or down: the form still opens).
  const fromApi = await deps.queries.environments().catch(() => undefined);
  // The opener's (or an earlier pick) stays listed even when neither names it.
  const listed = [...(fromApi ?? deps.environments ?? []), ...(environment ? [environment] : [])];
  blocks.push(
    ...choiceBlocks({
      blockId: WHERE_BLOCKS.environment,
      label: 'Environment',
      choices: [...new Set(listed)].map((e) => ({ label: e, value: e })),
      noun: 'environments',
      typeHint: 'the environment and press Enter',
      initial: environment,
      typedInitial: readBlock(values, `${WHERE_BLOCKS.environment}${TYPED_SUFFIX}`),
      hint:
        need === 'formation'
          ? 'Choosing another environment lists its formations.'
          : 'Choosing another environment reloads the form for it.',
      reload: true,
    }),
  );
  if (!environment) return { meta, blocks, known: false };
  const { formation: _dropped, ...rest } = meta;
  const withEnvironment: ModalMetadata = { ...rest, environment };
  if (need === 'environment') return { meta: { ...meta, environment }, blocks, known: true };

  const names = await deps.queries.formationNamesIn(environment);
  if (names === undefined) {
    blocks.push(
      contextBlock(`:warning: There is no environment *${shownName(environment)}*. Check the name.`),
    );
    return { meta: withEnvironment, blocks, known: false };
  }
  const named = namedFormation(meta, environment);
  const picked = named ?? readChoice(values, WHERE_BLOCKS.formation);
  const formation = picked && names.includes(picked) ? picked : undefined;
  if (!named) {
    blocks.push(
      ...choiceBlocks({
        blockId: WHERE_BLOCKS.formation,
        label: 'Formation',
        choices: names.map((n) => ({ label: n, value: n })),
        noun: `formations in ${environment}`,
        typeHint: 'a formation name and press Enter',
        initial: formation,
        typedInitial: readBlock(values, `${WHERE_BLOCKS.formation}${TYPED_SUFFIX}`),
        reload: true,
        suggest: { source: 'formations', scope: environment },
      }),
    );
  }
  if (picked && !formation) {
    blocks.push(
      contextBlock(`:warning: There is no formation *${shownName(picked)}* in *${shownName(environment)}*.`),
    );
  }
  if (!formation) return { meta: withEnvironment, blocks, known: false };
  return { meta: { ...withEnvironment, formation }, blocks, known: true };
}

function shownName(name: string): string {
  return escapeMrkdwn(truncate(name, 200));
}
