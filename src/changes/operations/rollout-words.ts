/**
 * What an image preview says about how a fleet takes a new image, worded once
 * for the forward image change (`armada image`, `armadaset image`) and for the
 * rollbacks that set an image back (of an image change or of a promotion), so
 * the two can never disagree: the fleet's own strategy (a rolling update, or
 * Recreate, which replaces every unallocated game server at once: the
 * provider's `strategy.recreate`), and the ImageUpdaters that target it, which
 * set the next image of their name pushed to (or promoted into) their branch
 * over whatever was set by hand (the provider's ImageUpdater resource).
 */

import type { Armada, ArmadaSet, ImageUpdater } from '../../api-shapes/armada-resources.js';
import { ApiError, type FleetKind, type GameFabricClient } from '../../gamefabric/client.js';
import type { Line } from '../operation.js';

/** The strategy line, warnings and notes of an image change on one fleet. */
export interface RolloutWords {
  lines: Line[];
  warnings: string[];
  notes: string[];
}

/** ImageUpdaters targeting the fleet; undefined when the API will not list them (the preview then says so). */
export async function targetingUpdaters(
  client: GameFabricClient,
  kind: string,
  env: string,
  name: string,
): Promise<ImageUpdater[] | undefined> {
  try {
    const all = await client.listImageUpdaters(env);
    return all.filter((u) => u.spec.targetRef.kind === kind && u.spec.targetRef.name === name);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return undefined;
    throw err;
  }
}

/** "ImageUpdater x rolls armada duel out whenever a game-server image appears in branch prod: …". */
export function updaterWarning(u: ImageUpdater, where: string): string {
  return `ImageUpdater ${u.metadata.name} rolls ${where} out whenever a ${u.spec.imageName} image appears in branch ${u.spec.branch}: it will override this image then.`;
}

export const UPDATERS_UNREAD =
  'Could not read the ImageUpdaters of this environment: one may override this image.';

/** The strategy of `fleet` (`where` in words) as an image preview shows it. */
export function strategyWords(fleet: Armada | ArmadaSet, where: string): RolloutWords {
  const strategy = fleet.spec.template.spec.strategy;
  // Recreate replaces every unallocated server at once (the provider's schema): a dip in free capacity.
  if (strategy?.type === 'Recreate') {
    return {
      lines: [{ label: 'Strategy', value: 'Recreate: all unallocated game servers at once' }],
      warnings: [
        `${where} uses the Recreate strategy: every unallocated game server is replaced at once, so none is free for new matches until the new ones are Ready.`,
      ],
      notes: [
        'Allocated game servers finish their match on the old build and are replaced as they come free.',
      ],
    };
  }
  const rolling = strategy?.rollingUpdate;
  return {
    lines: [
      {
        label: 'Strategy',
        value: `rolling update, max surge ${rolling?.maxSurge ?? '25% (default)'}, max unavailable ${rolling?.maxUnavailable ?? '25% (default)'}`,
      },
    ],
    warnings: [],
    notes: [
      'Game servers are replaced a few at a time; allocated ones finish their match on the old build and are replaced as they come free.',
    ],
  };
}

/** The strategy words and the ImageUpdater warnings of an image change on `fleet`, read from the API. */
export async function rolloutWords(
  client: GameFabricClient,
  kind: FleetKind,
  env: string,
  fleet: Armada | ArmadaSet,
  where: string,
): Promise<RolloutWords> {
  const updaters = await targetingUpdaters(client, kind, env, fleet.metadata.name);
  const strategy = strategyWords(fleet, where);
  return {
    lines: strategy.lines,
    warnings: [...strategy.warnings, ...(updaters ?? []).map((u) => updaterWarning(u, where))],
    notes: [...strategy.notes, ...(updaters === undefined ? [UPDATERS_UNREAD] : [])],
  };
}
