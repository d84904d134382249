/**
 * A promotion the API accepted but whose copy had not shown in the target
 * branch when apply stopped waiting: housekeeping looks again, and records
 * "Promoted" once the copy shows, or says plainly that it never appeared once
 * the settle window has passed. Until then the change stays as it is.
 */
import type { GameFabricClient } from '../gamefabric/client.js';
import { describe } from '../operations/index.js';
import type { Change } from './change.js';
import type { Result } from './operation.js';
import { promotionLanded } from './operations/image.promote/visible.js';

/** How long after the apply housekeeping keeps looking for the copy before saying it never appeared. */
export const PROMOTION_SETTLE_MS = 30 * 60_000;

interface PromotionRequest {
  image: string;
  tag: string;
  sourceBranch: string;
  targetBranch: string;
}

/** Whether `record` is a promotion (the one operation that lands later) recorded as requested but not yet visible. */
export function awaitsVisibility(change: Change): boolean {
  return (
    describe(change.operation).landsLater === true &&
    change.status === 'succeeded' &&
    change.result?.facts.visible === false
  );
}

/** The result to record now: Promoted, never appeared, or undefined while it may still show. */
export async function recheckPromotion(
  client: GameFabricClient,
  change: Change,
  now: number,
): Promise<Result | undefined> {
  const r = change.request as unknown as PromotionRequest;
  const before: Result = change.result ?? { summary: change.preview.summary, lines: [], facts: {} };
  const [source] = await client.listImages(r.sourceBranch, { image: r.image, tag: r.tag });
  // As apply's own wait: a failed read of the target proves nothing, so only the deadline decides.
  const targetImages = await client
    .listImages(r.targetBranch, { image: r.image, tag: r.tag })
    .catch(() => []);
  const landed = source ? promotionLanded(targetImages, source, change.preview.facts.targetHad) : undefined;
  if (landed) {
    return {
      summary: `Promoted ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch}`,
      lines: [
        ...before.lines.filter((l) => l.label !== 'Status'),
        { label: `Now in ${r.targetBranch}`, value: landed.metadata.name, secondary: true },
      ],
      facts: { ...before.facts, visible: true },
    };
  }
  if (now - change.updatedAt < PROMOTION_SETTLE_MS) return undefined;
  const minutes = Math.round(PROMOTION_SETTLE_MS / 60_000);
  return {
    summary: `Promotion of ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch} never appeared in ${r.targetBranch}`,
    lines: [
      ...before.lines.filter((l) => l.label !== 'Status'),
      {
        label: 'Status',
        value: `the API accepted the promotion, but ${r.image}:${r.tag} was still not seen in ${r.targetBranch} ${minutes} minutes later; ask the platform team whether the promotion was dropped`,
      },
    ],
    facts: { ...before.facts, visible: 'never' },
  };
}
