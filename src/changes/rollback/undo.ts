/**
 * What an applied change's inverse needs, recorded by its operation when it
 * applies (the before-state its guard read, the API's answer) and stored with
 * the change (`undo`), so a rollback never has to guess what was replaced.
 * Its shape is the operation's own, declared in its folder
 * (changes/operations/<id>/); the folder builds its inverse's restore request
 * from it, keyed by the change's operation (no second name for it here).
 * Records stored before issue 39 also carry a `kind`, which nothing reads.
 */

/** An operation's undo record, as the change lifecycle carries it. */
export type Undo = object;

/** Whether `undo` holds an inverse to offer: an undo that records why there is nothing to set back (`nothing`) does not. */
export function offersRollback(undo: Undo | undefined): boolean {
  return undo !== undefined && !(undo as { nothing?: unknown }).nothing;
}

/** Why `undo` sets nothing back, when it says so (a promotion that rolled out nothing). */
export function nothingToSetBack(undo: Undo): string | undefined {
  const nothing = (undo as { nothing?: unknown }).nothing;
  return typeof nothing === 'string' && nothing ? nothing : undefined;
}
