/** A read's 404 as "not there" for the restores' guards. */
import { isNotFound } from '../../gamefabric/errors.js';

/** A 404 read as "not there"; anything else goes on. */
export function gone(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}
