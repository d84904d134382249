/**
 * What a promotion rolls out: an ImageUpdater rolls its target out when an
 * image of its imageName appears in its branch, and a promotion is how an
 * image appears in a branch. ImageUpdaters live in environments, branches do
 * not, so every environment is asked: the API's list, or the configured
 * environments when the API will not list them.
 */
import { ApiError } from '../../../gamefabric/errors.js';
import { watchRollout } from '../../fleet-follow.js';
import { compareTags, splitRef } from '../../image-change.js';
import type { FollowEvent, OperationContext } from '../../operation.js';

/** One target an ImageUpdater will roll out. */
export interface Rollout {
  environment: string;
  kind: string;
  name: string;
  updater: string;
  /** The `image:tag` the target's container of that image runs now (Armadas and ArmadaSets, when readable). */
  runs?: string;
}

/** What the promotion preview says about rollouts. */
export interface Rollouts {
  rollouts: Rollout[];
  /** Environments whose ImageUpdaters could not be read (no permission, say). */
  unread: string[];
}

const refused = (err: unknown) => err instanceof ApiError && (err.status === 403 || err.status === 404);

async function environmentNames(ctx: OperationContext): Promise<string[]> {
  try {
    return (await ctx.client.listEnvironments()).map((e) => e.metadata.name);
  } catch (err) {
    if (refused(err)) return [...ctx.environments];
    throw err;
  }
}

/** The ImageUpdaters whose branch is `branch` and whose imageName is `image`, with their targets. */
export async function rolloutsOf(ctx: OperationContext, branch: string, image: string): Promise<Rollouts> {
  const environments = await environmentNames(ctx);
  const rollouts: Rollout[] = [];
  const unread: string[] = [];
  await Promise.all(
    environments.map(async (environment) => {
      try {
        for (const u of await ctx.client.listImageUpdaters(environment)) {
          if (u.spec.branch !== branch || u.spec.imageName !== image) continue;
          const { kind, name } = u.spec.targetRef;
          rollouts.push({ environment, kind, name, updater: u.metadata.name });
        }
      } catch (err) {
        if (!refused(err)) throw err;
        unread.push(environment);
      }
    }),
  );
  await noteWhatTheyRun(ctx, branch, image, rollouts);
  const key = (r: Rollout) => `${r.environment}/${r.kind}/${r.name}`;
  rollouts.sort((a, b) => key(a).localeCompare(key(b)));
  return { rollouts, unread: unread.sort() };
}

/**
 * What each Armada/ArmadaSet target runs now, so the preview can say when a
 * promotion rolls it back to an older build; a target that cannot be read is
 * left without (the preview then says nothing about it).
 */
async function noteWhatTheyRun(
  ctx: OperationContext,
  branch: string,
  image: string,
  rollouts: Rollout[],
): Promise<void> {
  const fleets = rollouts.filter((r) => r.kind === 'Armada' || r.kind === 'ArmadaSet');
  if (fleets.length === 0) return;
  const tags = new Map(
    (await ctx.client.listImages(branch).catch(() => [])).map((i) => [i.metadata.name, i.spec]),
  );
  await Promise.all(
    fleets.map(async (r) => {
      const fleet = await (r.kind === 'Armada'
        ? ctx.client.getArmada(r.environment, r.name)
        : ctx.client.getArmadaSet(r.environment, r.name)
      ).catch(() => undefined);
      for (const c of fleet?.spec.template.spec.containers ?? []) {
        const spec = c.branch === branch && c.image ? tags.get(c.image) : undefined;
        if (spec?.image === image) r.runs = `${spec.image}:${spec.tag}`;
      }
    }),
  );
}

/** Whether rolling `promoted` (`image:tag`) out to `r` takes it back to an older build. */
export function isDowngrade(r: Rollout, promoted: string): boolean {
  const now = r.runs ? splitRef(r.runs) : undefined;
  const next = splitRef(promoted);
  return !!now && !!next && compareTags(next.tag, now.tag) === -1;
}

/** "will roll out to ArmadaSet arena (prod), by ImageUpdater arena-game-server", and whether that is a downgrade. */
export function rolloutText(r: Rollout, promoted: string): string {
  const base = `will roll out to ${r.kind} ${r.name} (${r.environment}), by ImageUpdater ${r.updater}`;
  return isDowngrade(r, promoted) ? `${base}: a downgrade, it runs ${r.runs} now` : base;
}

/**
 * Follows each rollout in turn until its fleet runs `internalName` and is
 * Synced (Armadas and ArmadaSets); Formations and Vessels are named, not
 * followed, as their rollouts have no state of their own to wait for.
 */
export async function* followRollouts(
  ctx: OperationContext,
  rollouts: readonly Rollout[],
  label: string,
  internalName: string,
): AsyncIterable<FollowEvent> {
  for (const r of rollouts) {
    if (r.kind === 'Armada' || r.kind === 'ArmadaSet') {
      yield* watchRollout(ctx, r.kind, r.environment, r.name, label, internalName);
    } else {
      yield {
        kind: 'progress',
        message: `ImageUpdater ${r.updater} rolls ${r.kind} ${r.name} (${r.environment}) out to ${label}.`,
      };
    }
  }
}
