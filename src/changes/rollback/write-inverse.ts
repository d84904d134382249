/**
 * The guarded write of one inverse: the restore writes, guarded by what the
 * original change left (a JSON Patch `test` of what the guard read, or a
 * create that fails on a taken name), and any refusal the API gives because
 * the target moved between the guard and the write is read as moved, so the
 * rollback names it instead of failing.
 */
import {
  ApiError,
  ArmadaMovedError,
  ContainerNotInTemplateError,
  DuplicateVesselError,
  RegionNotInArmadaSetError,
  RegionTypeNotInDistributionError,
  VesselNotInFormationError,
} from '../../gamefabric/client.js';
import type { OperationContext } from '../operation.js';
import { InverseMovedError } from './restore.js';
import type { Inverse } from './undone-by.js';

/** A failed JSON Patch `test` (the service answers 409/422 with a Status reason). */
function failedTest(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 409 || err.status === 422) && err.reason !== undefined;
}

/** Writes the inverse; returns what was done in words, or throws InverseMovedError naming what moved. */
export async function writeInverse(ctx: OperationContext, { restore, request }: Inverse): Promise<string> {
  const view = restore.view(request);
  try {
    await restore.write(ctx, request);
  } catch (err) {
    if (err instanceof InverseMovedError) throw err;
    if (err instanceof ArmadaMovedError) throw new InverseMovedError(`${view.subject} is now ${err.actual}`);
    if (
      err instanceof ContainerNotInTemplateError ||
      err instanceof RegionTypeNotInDistributionError ||
      err instanceof RegionNotInArmadaSetError ||
      err instanceof VesselNotInFormationError ||
      err instanceof DuplicateVesselError ||
      failedTest(err)
    ) {
      throw new InverseMovedError(`${view.subject} changed while rolling back`);
    }
    const now = restore.movedBy?.(err, request);
    if (now) throw new InverseMovedError(now);
    throw err;
  }
  return view.summary;
}
