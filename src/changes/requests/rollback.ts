/** The request of change.rollback: the applied changes to undo (one, or every change of a release). */
import { z } from 'zod';
import { record } from './vocabulary.js';

const changeId = z
  .string({ error: 'expected the id of a change, as its buttons carry it' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'expected the id of a change (letters, digits, - and _)' });

export const rollbackSchema = record({
  changeIds: z
    .array(changeId, { error: 'expected a list of change ids' })
    .min(1, { error: 'expected at least one change id' })
    .max(100, { error: 'at most 100 changes can be rolled back at once' }),
  /** The release whose changes these are, when the whole release is rolled back. */
  releaseId: z.string().trim().min(1).max(64).optional(),
});

export type RollbackRequest = z.output<typeof rollbackSchema>;
