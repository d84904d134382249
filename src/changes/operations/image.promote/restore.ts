/**
 * image.promote's restore (a promotion is set back by its own code, judged
 * per target as the image change of that fleet): the images its
 * ImageUpdaters rolled out, set back target by target. Every target is read
 * before any write, and each write is guarded again (a fleet's as
 * armada/armadaset image writes it, a Formation's template container by JSON
 * Patch with a `test` of the promoted copy). Vessels are named, not set
 * back: Harbormaster has no write for a Vessel's template.
 */
import { ArmadaMovedError } from '../../../gamefabric/client.js';
import { CHANGE_OPERATIONS, type ChangeOperation, describe, type Target } from '../../../operations/index.js';
import { readFleet } from '../../fleet-read.js';
import type { OperationContext } from '../../operation.js';
import { gone } from '../../rollback/gone.js';
import { fleetWhere, isFleetTarget, promotedWhere } from '../../rollback/inverse-words.js';
import { InverseMovedError, moved, type Restore, UNCHANGED } from '../../rollback/restore.js';
import { strategyWords } from '../rollout-words.js';
import type { PromotedTarget, Promotion } from './undo.js';

/**
 * The change operation whose inverse writes a `fleet`'s image: the one whose
 * descriptor rolls that kind of fleet out and is its own inverse (armada or
 * armadaset image), found in the catalogue so its id is written once.
 */
function imageOperationOf(fleet: string): ChangeOperation {
  const op = CHANGE_OPERATIONS.find((o) => {
    const d = describe(o);
    return d.rollsOut?.kind === fleet && d.rollback && 'inverse' in d.rollback && d.rollback.inverse === o;
  });
  if (!op) throw new Error(`no operation rolls out ${fleet} images`);
  return op;
}

/** The policy's target for one promotion target: the fleet, Formation or Vessel it writes. */
const promotedTarget = (t: PromotedTarget): Target =>
  t.fleet === 'ArmadaSet'
    ? { environment: t.environment, armadaSet: t.name }
    : t.fleet === 'Formation'
      ? { environment: t.environment, formation: t.name }
      : t.fleet === 'Vessel'
        ? { environment: t.environment, vessel: t.name }
        : { environment: t.environment, armada: t.name };
const promotedKey = (t: PromotedTarget) => ['image', t.fleet, t.environment, t.name, t.container].join('|');

/** The template containers of a promotion's target as read now; undefined when it is gone. */
async function promotedContainers(ctx: OperationContext, t: PromotedTarget) {
  const c = ctx.client;
  if (isFleetTarget(t))
    return (await readFleet(c, t.fleet, t.environment, t.name).catch(gone))?.spec.template.spec.containers;
  if (t.fleet === 'Formation') {
    const formation = await c.getFormation(t.environment, t.name).catch(gone);
    return formation ? (formation.spec.template?.spec.containers ?? []) : undefined;
  }
  return (await c.getVessel(t.environment, t.name).catch(gone))?.spec.template.spec.containers;
}

/**
 * Vessels are named, not set back: Harbormaster has no write for a Vessel's
 * template (the provider updates one by merge patch; not built here).
 */
const writable = (t: PromotedTarget) => t.fleet !== 'Vessel';

/** The first promotion target whose container no longer runs the promoted copy, in words; undefined when none moved. */
async function promotionMoved(ctx: OperationContext, targets: readonly PromotedTarget[]) {
  for (const t of targets) {
    const containers = await promotedContainers(ctx, t);
    if (!containers) return `${promotedWhere(t)} no longer exists`;
    const container = containers.find((x) => x.name === t.container);
    if (!container) return `${promotedWhere(t)} no longer has a container ${t.container}`;
    if (container.image !== t.after)
      return `container ${t.container} of ${promotedWhere(t)} now runs ${container.image ?? 'no image'}, not the promoted ${t.afterLabel}`;
  }
  return undefined;
}

/** Sets a Formation's template container back to `t.before`, refused (a failed `test`) when it no longer runs `t.after`. */
async function setFormationImage(ctx: OperationContext, t: PromotedTarget): Promise<void> {
  const formation = await ctx.client.getFormation(t.environment, t.name);
  const containers = formation.spec.template?.spec.containers ?? [];
  const index = containers.findIndex((x) => x.name === t.container);
  if (index < 0) throw new InverseMovedError(`${promotedWhere(t)} no longer has a container ${t.container}`);
  const path = `/spec/template/spec/containers/${index}`;
  await ctx.client.patchFormation(t.environment, t.name, [
    { op: 'test', path: `${path}/name`, value: t.container },
    { op: 'test', path: `${path}/image`, value: t.after },
    { op: 'replace', path: `${path}/image`, value: t.before },
  ]);
}

export const restorePromotion: Restore<Promotion> = {
  view(u) {
    const written = u.targets.filter(writable);
    const first = written[0];
    const updaters = [...new Set(u.targets.map((t) => t.updater))].sort();
    const one = updaters.length === 1;
    const image = u.promoted.split(':')[0];
    return {
      target: first ? promotedTarget(first) : {},
      summary: `Set back the images promotion of ${u.promoted} into ${u.branch} rolled out to ${written.map(promotedWhere).join(', ')}`,
      lines: written.map((t) => ({
        label: `Image of ${promotedWhere(t)}, container ${t.container}`,
        value: `${t.afterLabel} → ${t.beforeLabel}`,
      })),
      destructive: false,
      warnings: [
        `${one ? 'ImageUpdater' : 'ImageUpdaters'} ${updaters.join(', ')} ${one ? 'rolls' : 'roll'} forward again when a newer ${image} tag arrives in ${u.branch} (auto-update): this rollback lasts only until then.`,
      ],
      // How each fleet replaces its game servers is read from it (effects).
      notes: [`The promoted image ${u.promoted} stays in branch ${u.branch}: rollback does not delete it.`],
      subject: `the images the promotion of ${u.promoted} rolled out`,
      // A fleet is judged as its image change; a Formation, which no operation of ours writes
      // otherwise, as the promotion into that branch that rolled it out.
      judgements: written.filter(isFleetTarget).map((t) => ({
        operation: imageOperationOf(t.fleet),
        target: promotedTarget(t),
      })),
      ...(written.some((t) => !isFleetTarget(t)) ? { judgedAsOriginal: [{ branch: u.branch }] } : {}),
      notSetBack: [
        ...u.targets
          .filter((t) => !writable(t))
          .map(
            (t) =>
              `${promotedWhere(t)}, container ${t.container}: stays on ${t.afterLabel} (ImageUpdater ${t.updater}); Harbormaster does not write a Vessel's image, so set it back to ${t.beforeLabel} in the GameFabric console`,
          ),
        ...(u.unrecorded ?? []).map(
          (x) =>
            `${fleetWhere({ fleet: x.kind, name: x.name })} (${x.environment}): stays on what ImageUpdater ${x.updater} rolled out; ${x.why}`,
        ),
      ],
    };
  },

  async guard(ctx, u) {
    // Every target is read before any write: one moved refuses them all.
    const now = await promotionMoved(ctx, u.targets.filter(writable));
    return now ? moved(now) : UNCHANGED;
  },

  async write(ctx, u) {
    for (const t of u.targets.filter(writable)) {
      try {
        if (isFleetTarget(t)) {
          await ctx.client.setTemplateImage(
            { kind: t.fleet, env: t.environment, name: t.name, container: t.container },
            t.after,
            t.before,
            { maxAttempts: 1 },
          );
        } else {
          await setFormationImage(ctx, t);
        }
      } catch (err) {
        if (err instanceof ArmadaMovedError)
          throw new InverseMovedError(`container ${t.container} of ${promotedWhere(t)} is now ${err.actual}`);
        throw err;
      }
    }
  },

  async restored(ctx, u) {
    const back = u.targets.filter(writable).map((t) => ({ ...t, after: t.before }));
    return back.length > 0 && (await promotionMoved(ctx, back)) === undefined;
  },

  // Keyed like an image change of its first fleet: a later image change there is named.
  subjectKey: (u) =>
    u.targets[0] ? promotedKey(u.targets[0]) : ['promotion', u.branch, u.promoted].join('|'),

  async effects(ctx, u) {
    // The ImageUpdaters are named by the view itself; each fleet's strategy is read here.
    const out = {
      lines: [] as { label: string; value: string }[],
      warnings: [] as string[],
      notes: [] as string[],
    };
    for (const t of u.targets) {
      if (!isFleetTarget(t)) continue;
      const fleet = await readFleet(ctx.client, t.fleet, t.environment, t.name);
      const words = strategyWords(fleet, promotedWhere(t));
      out.lines.push(...words.lines.map((l) => ({ ...l, label: `${l.label} of ${promotedWhere(t)}` })));
      out.warnings.push(...words.warnings);
      out.notes.push(...words.notes.filter((n) => !out.notes.includes(n)));
    }
    return out;
  },

  // The promotion's targets were recorded for containers of its target branch only.
  imagesBack: async (_ctx, u) =>
    u.targets.map((t) => ({ internal: t.before, label: t.beforeLabel, branch: u.branch })),

  environments: (u) => u.targets.map((t) => t.environment),
};
