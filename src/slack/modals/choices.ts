/**
 * The lists the modals offer, built from the form queries' picker data: images as `image:tag`
 * (newest tags first), regions by name, branches as configured.
 */

import { type BranchInfo, branchLabel } from '../../changes/branches.js';
import type { ImagePick, RegionPick } from '../../changes/form-pickers.js';
import type { Choice } from './blocks.js';

/** "1.10.0" after "1.9.0": digit runs compare as numbers. One collator: building one per compare is slow. */
const compareTags = new Intl.Collator('en', { numeric: true }).compare;

/**
 * Images as `image:tag` choices: grouped by image name (`first` leads, the
 * rest alphabetical), newest tag first within each group.
 */
export function imageChoices(images: readonly ImagePick[], first?: string): Choice[] {
  const sorted = [...images].sort((x, y) => {
    const a = x;
    const b = y;
    if (a.image !== b.image) {
      if (a.image === first) return -1;
      if (b.image === first) return 1;
      return a.image < b.image ? -1 : 1;
    }
    return compareTags(b.tag, a.tag);
  });
  return sorted.map((i) => {
    const ref = `${i.image}:${i.tag}`;
    return { label: ref, value: ref };
  });
}

/** `image:tag` of the image with internal name `name`, when the list has it. */
export function imageRefByName(images: readonly ImagePick[], name: string | undefined): string | undefined {
  const found = images.find((i) => i.name === name);
  return found ? `${found.image}:${found.tag}` : undefined;
}

/** Regions as choices, labelled "name (Display Name)". */
export function regionChoices(regions: readonly RegionPick[]): Choice[] {
  return regions.map((r) => {
    const display = r.displayName;
    return {
      label: display && display !== r.name ? `${r.name} (${display})` : r.name,
      value: r.name,
    };
  });
}

/** Branches from the API as choices, labelled with their display names. */
export function branchChoices(branches: readonly BranchInfo[]): Choice[] {
  return branches.map((b) => ({ label: branchLabel(b), value: b.name }));
}

/** The value to preselect when there is exactly one choice (the only region needs no picking); else undefined. */
export function onlyChoice(choices: readonly Choice[]): string | undefined {
  return choices.length === 1 ? choices[0]?.value : undefined;
}

/**
 * A name to show as an example in a name field: `base-N`, counting on from
 * `from`, that none of `taken` has (a placeholder that names an existing
 * vessel invites the duplicate it would be refused for).
 */
export function freeName(base: string, taken: Iterable<string>, from: number): string {
  const used = new Set(taken);
  let n = Math.max(1, from);
  while (used.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
