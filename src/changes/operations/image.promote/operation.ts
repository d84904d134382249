/**
 * Promote `image:tag` from one branch to another (seed rule 4). The promotion's
 * name is the change's applyToken, a UUID fixed at request time, so a retry or
 * a recovery after a crash can never promote twice.
 */

import { UserError } from '../../../errors/user-error.js';
import type { GameFabricClient } from '../../../gamefabric/client.js';
import { ImageNotFoundError, isNotFound } from '../../../gamefabric/errors.js';
import { WorldMovedError } from '../../errors.js';
import { missingBranch } from '../../not-found.js';
import type { FollowEvent, OperationModule, Preview } from '../../operation.js';
import { type PromoteImageRequest, promoteImageSchema } from '../../requests/images.js';
import { parseRequest } from '../../requests/vocabulary.js';
import { followRollouts, isDowngrade, type Rollout, rolloutsOf, rolloutText } from './rollouts.js';
import { imagesBefore, promotionUndo } from './undo.js';
import { waitForPromotion } from './visible.js';

export const promoteImage: OperationModule<PromoteImageRequest> = {
  parse: (input) => parseRequest(promoteImageSchema, input),

  target: (r) => ({ branch: r.targetBranch, sourceBranch: r.sourceBranch }),

  // A promotion changes an environment through its ImageUpdaters: each one it rolls out to, and each
  // whose ImageUpdaters could not be read (it may roll out there too).
  freezeScope: (_r, preview) => {
    const rollouts = (preview.facts.rollouts ?? []) as { environment: string }[];
    const unread = (preview.facts.unreadEnvironments ?? []) as string[];
    return {
      places: [...new Set([...rollouts.map((x) => x.environment), ...unread])].map((env) => ({ env })),
    };
  },

  async plan(ctx, r) {
    const source = await findOrExplain(ctx.client, r.sourceBranch, r.image, r.tag);
    const existing = await ctx.client
      .listImages(r.targetBranch, { image: r.image, tag: r.tag })
      .catch((err) => {
        if (isNotFound(err)) throw missingBranch(r.targetBranch);
        throw err;
      });
    // The same bytes already in the target: a promotion would page approvers to copy nothing.
    const same = existing.find(
      (i) => source.spec.digest !== undefined && i.spec.digest === source.spec.digest,
    );
    if (same) {
      throw new UserError(
        `${r.image}:${r.tag} is already in ${r.targetBranch} (the same build); nothing to change.`,
        'noop',
      );
    }
    const { rollouts, unread } = await rolloutsOf(ctx, r.targetBranch, r.image);
    const downgrades = rollouts.filter((x) => isDowngrade(x, `${r.image}:${r.tag}`));
    const preview: Preview = {
      summary: `Promote ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch}`,
      lines: [
        { label: 'Image', value: `${r.image}:${r.tag}` },
        { label: 'From branch', value: r.sourceBranch },
        { label: 'To branch', value: r.targetBranch },
        {
          label: `Already in ${r.targetBranch}`,
          value: alreadyThere(existing),
        },
        { label: 'Internal image name', value: source.metadata.name, secondary: true },
        ...(existing[0]
          ? [
              {
                label: `Internal name in ${r.targetBranch}`,
                value: existing[0].metadata.name,
                secondary: true,
              },
            ]
          : []),
      ],
      // Worded by what the API documents: a promotion copies an image into the
      // target branch. What becomes of a copy already there is not documented.
      notes: [
        ...(existing[0]
          ? [
              `${r.targetBranch} already lists ${r.image}:${r.tag}. The API documents a promotion as copying the image into the target branch; it does not say what happens to the copy already there.`,
            ]
          : []),
        ...(rollouts.length === 0 && unread.length === 0
          ? [`No ImageUpdater rolls ${r.image} out from ${r.targetBranch}: nothing restarts by itself.`]
          : []),
        ...(unread.length > 0
          ? [`Could not read the ImageUpdaters of ${unread.join(', ')}: more may roll out than listed.`]
          : []),
      ],
      ...(rollouts.length > 0
        ? {
            lists: [
              {
                title: 'Rolls out (ImageUpdaters)',
                items: rollouts.map((x) => rolloutText(x, `${r.image}:${r.tag}`)),
              },
            ],
          }
        : {}),
      destructive: false,
      ...(downgrades.length > 0
        ? {
            warnings: downgrades.map(
              (x) =>
                `This is a downgrade for ${x.kind} ${x.name} (${x.environment}): it runs ${x.runs} now, and ImageUpdater ${x.updater} will roll it back to ${r.image}:${r.tag}.`,
            ),
          }
        : {}),
      facts: {
        imageName: source.metadata.name,
        targetHad: existing[0]?.metadata.name ?? null,
        rollouts,
        // A freeze on one of these stops the promotion too: it may roll out there (changes/freeze-scope.ts).
        unreadEnvironments: unread,
      },
    };
    return preview;
  },

  async apply(ctx, { request: r, preview, applyToken }) {
    const source = await findOrExplain(ctx.client, r.sourceBranch, r.image, r.tag, 'since the preview');
    if (source.metadata.name !== preview.facts.imageName) {
      throw new WorldMovedError(
        `${r.image}:${r.tag} in ${r.sourceBranch} changed since the preview (internal name was ${String(preview.facts.imageName)}, now ${source.metadata.name}); nothing was promoted. Request the promotion again to see the new preview.`,
      );
    }
    // What each ImageUpdater target runs before the promotion, for its rollback (undo).
    const runsBefore = await imagesBefore(ctx, r.targetBranch, r.image, preview.facts.rollouts as Rollout[]);
    const { promotion, alreadyExisted } = await ctx.client.createImagePromotion({
      apiVersion: 'container/v1',
      kind: 'ImagePromotion',
      metadata: { name: applyToken, branch: r.targetBranch },
      spec: { branch: r.sourceBranch, imageName: source.metadata.name },
    });
    // A 201 means the API accepted the request; the copy is confirmed only when
    // the target branch lists it. Wait a bounded time, then say what is known.
    const landed = await waitForPromotion(ctx, r, source, preview.facts.targetHad);
    const lines = [
      { label: 'Image', value: `${r.image}:${r.tag}` },
      { label: 'Promotion', value: promotion.metadata.name, secondary: true },
      { label: 'Internal image name', value: source.metadata.name, secondary: true },
    ];
    const facts = {
      promotionName: promotion.metadata.name,
      imageName: source.metadata.name,
      alreadyExisted,
      visible: landed !== undefined,
      ...(landed ? { landedName: landed.metadata.name } : {}),
    };
    const undo = promotionUndo(r, runsBefore, landed?.metadata.name);
    if (!landed) {
      return {
        undo,
        summary: `Promotion of ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch} requested; not yet visible in ${r.targetBranch}`,
        lines: [
          ...lines,
          {
            label: 'Status',
            value: `the API accepted the promotion, but ${r.targetBranch} does not list the new copy yet; check with /harbor images ${r.targetBranch} ${r.image}`,
          },
        ],
        facts,
      };
    }
    return {
      summary: `Promoted ${r.image}:${r.tag} from ${r.sourceBranch} to ${r.targetBranch}`,
      lines: [
        ...lines,
        // The copy's internal name, as detail: the summary already says it landed.
        { label: `Now in ${r.targetBranch}`, value: landed.metadata.name, secondary: true },
      ],
      facts,
      undo,
    };
  },

  // The fleets the preview said ImageUpdaters roll out, once the copy is in the target branch.
  follow(ctx, { request: r, preview }, result) {
    const rollouts = (preview.facts.rollouts as Rollout[] | undefined) ?? [];
    const landed = result.facts.landedName;
    if (rollouts.length === 0 || typeof landed !== 'string') return followNothing();
    return followRollouts(ctx, rollouts, `${r.image}:${r.tag}`, landed);
  },

  async verify(ctx, { request: r, applyToken }) {
    try {
      await ctx.client.getImagePromotion(r.targetBranch, applyToken);
      return 'applied';
    } catch (err) {
      if (isNotFound(err)) return 'not_applied';
      throw err;
    }
  },
};

// A copy with the same digest stopped the plan already; one listed here holds other bytes.
function alreadyThere(existing: readonly { metadata: { name: string } }[]) {
  const first = existing[0];
  return first ? `yes (${first.metadata.name}), with a different digest` : 'no';
}

async function findOrExplain(
  client: GameFabricClient,
  branch: string,
  image: string,
  tag: string,
  when = '',
) {
  try {
    return await client.findImage(branch, image, tag);
  } catch (err) {
    if (err instanceof ImageNotFoundError) {
      const others = await client.listImages(branch, { image }).catch(() => []);
      const tags = others
        .map((i) => i.spec.tag)
        .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))
        .slice(0, 10);
      const hint = tags.length > 0 ? ` Tags of ${image} in ${branch}: ${tags.join(', ')}.` : '';
      if (when) {
        throw new WorldMovedError(
          `${image}:${tag} is no longer in branch ${branch} (it was there ${when}); nothing was promoted.${hint}`,
        );
      }
      throw new UserError(`No image ${image}:${tag} in branch ${branch}.${hint}`, 'not_found');
    }
    if (isNotFound(err)) throw missingBranch(branch);
    throw err;
  }
}

async function* followNothing(): AsyncIterable<FollowEvent> {}
