/**
 * The promote modal: source branch (choosing one reloads its images), the
 * image as `image:tag` from that branch, and the target branch.
 */
import type { PromoteImageInput } from '../../changes/requests/images.js';
import { choiceBlocks, contextBlock } from './blocks.js';
import { branchChoices, imageChoices } from './choices.js';
import { addError, errorBlock, missingChoice } from './field-errors.js';
import { splitImageRef } from './parse-text.js';
import { readBlock, readChoice, TYPED_SUFFIX } from './state.js';
import type { ModalDefinition } from './types.js';

/** Block ids of the promote modal. */
export const PROMOTE_BLOCKS = {
  source: 'sourceBranch',
  image: 'image',
  target: 'targetBranch',
} as const;

const B = PROMOTE_BLOCKS;
const IMAGE_HINT = 'image:tag (e.g. game-server:1.2.0)';

export const promoteModal: ModalDefinition<PromoteImageInput> = {
  submit: 'Preview',
  fallbackBlock: B.image,

  async build(meta, deps, values) {
    const branches = (await deps.queries.branches()) ?? [];
    // A row's Promote button (`images <branch>`) chose the branch and image; a person's pick wins.
    const source = readChoice(values, B.source) ?? meta.branch ?? branches[0]?.name;
    const images = source ? await deps.queries.images(source) : [];
    return [
      contextBlock('Copies an image from one branch to another. You see a preview before anything changes.'),
      ...choiceBlocks({
        blockId: B.source,
        label: 'Source branch',
        choices: branchChoices(branches),
        noun: 'branches',
        typeHint: 'a branch name and press Enter',
        initial: source,
        typedInitial: readBlock(values, `${B.source}${TYPED_SUFFIX}`),
        reload: true,
      }),
      ...choiceBlocks({
        blockId: B.image,
        label: 'Image',
        choices: imageChoices(images),
        noun: source ? `images in ${source}` : 'images',
        typeHint: IMAGE_HINT,
        initial: readChoice(values, B.image) ?? (source === meta.branch ? meta.image : undefined),
        typedInitial: readBlock(values, `${B.image}${TYPED_SUFFIX}`),
        resetKey: source ?? '',
        ...(source ? { suggest: { source: 'images' as const, scope: source } } : {}),
        hint: 'Newest tags first.',
      }),
      ...choiceBlocks({
        blockId: B.target,
        label: 'Target branch',
        choices: branchChoices(branches),
        noun: 'branches',
        typeHint: 'a branch name',
        initial: readChoice(values, B.target),
        typedInitial: readBlock(values, `${B.target}${TYPED_SUFFIX}`),
      }),
    ];
  },

  read(_meta, values) {
    const errors: Record<string, string> = {};
    const sourceBranch = readChoice(values, B.source);
    const ref = readChoice(values, B.image);
    const targetBranch = readChoice(values, B.target);
    const image = ref ? splitImageRef(ref) : undefined;
    if (!sourceBranch) addError(errors, B.source, 'Choose the branch to copy from.');
    if (!ref) addError(errors, B.image, missingChoice(values, B.image, 'an image', IMAGE_HINT));
    else if (!image) addError(errors, errorBlock(B.image, values), `Write the image as ${IMAGE_HINT}.`);
    if (!targetBranch) addError(errors, B.target, 'Choose the branch to copy to.');
    const input = { image: image?.image, tag: image?.tag, sourceBranch, targetBranch };
    // What could be read goes along, so the operation's own checks report their problems in the same answer.
    if (!sourceBranch || !image || !targetBranch) return { ok: false, errors, partial: input };
    return { ok: true, input: { ...image, sourceBranch, targetBranch } };
  },

  blockFor(field) {
    if (field === 'image' || field === 'tag') return B.image;
    if (field === 'sourceBranch') return B.source;
    if (field === 'targetBranch') return B.target;
    return undefined;
  },
};
