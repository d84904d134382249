/** The request of image.promote. */
import type { z } from 'zod';
import { imageName, name, record, tag } from './vocabulary.js';

export const promoteImageSchema = record({
  image: imageName(),
  tag: tag(),
  sourceBranch: name('branch', 'dev'),
  targetBranch: name('branch', 'prod'),
}).superRefine((r, ctx) => {
  if (r.sourceBranch === r.targetBranch) {
    ctx.addIssue({
      code: 'custom',
      path: ['targetBranch'],
      message: `must differ from the source branch (both are "${r.sourceBranch}")`,
    });
  }
});

export type PromoteImageRequest = z.output<typeof promoteImageSchema>;

/** What a command or a form gives for it (before the schema fills defaults). */
export type PromoteImageInput = z.input<typeof promoteImageSchema>;
