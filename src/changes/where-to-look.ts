/**
 * Where in the hosting API a person can see whether a change took effect:
 * named in "could not confirm" messages, so nobody retries blindly.
 */
import type { ChangeOperation } from '../policy/operations.js';

/** The parts of a Change that name what it acts on (a shape of its own, so change.ts can use it). */
interface ChangeTarget {
  operation: ChangeOperation;
  request: unknown;
  applyToken: string;
  preview: { summary: string };
}

/** The object to look at for `change`, e.g. "formation lobby in environment dev". */
export function whereToLook(change: ChangeTarget): string {
  const r = (change.request ?? {}) as Record<string, unknown>;
  const s = (key: string) => String(r[key] ?? '?');
  switch (change.operation) {
    case 'image.promote':
      return `ImagePromotion ${change.applyToken} and image ${s('image')}:${s('tag')} in branch ${s('targetBranch')}`;
    case 'vessel.create':
      return `vessel ${s('name')} in environment ${s('environment')}`;
    case 'vessel.delete':
      return `vessel ${s('vessel')} in environment ${s('environment')}`;
    case 'formation.add':
    case 'formation.remove':
      return `formation ${s('formation')} in environment ${s('environment')}`;
    case 'region.create':
      return `region ${s('name')} in environment ${s('environment')}`;
    case 'region.scheduling':
      return `region ${s('region')} (type ${s('type')}) in environment ${s('environment')}`;
    default:
      return change.preview.summary;
  }
}
