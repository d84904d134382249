/** What a freeze is to the rest of the bot (issue 41), whichever made it: a person, or a policy window. */

/** A freeze in force (or, listed as upcoming, about to be) on one environment. */
export type Freeze =
  | {
      kind: 'manual';
      id: string;
      env: string;
      by: string;
      reason?: string;
      /** When it began. */
      since: number;
      /** When it ends by itself; absent: until someone unfreezes it. */
      until?: number;
      channel: string;
    }
  | {
      kind: 'window';
      /** The window's name in the policy file. */
      name: string;
      env: string;
      reason?: string;
      /** This occurrence's start and end (epoch ms). */
      since: number;
      until: number;
      /** The window as the policy writes it: "sat, sun 16:00-09:00 Europe/Berlin". */
      schedule: string;
    };

/**
 * Where a change acts, as a freeze judges it: each environment it writes
 * to, and for a rollback when the change it undoes was applied (a rollback
 * of a change applied before a freeze began is how one gets out of trouble,
 * so that freeze does not stop it).
 */
export interface FreezeScope {
  places: { env: string; undoesChangeAppliedAt?: number }[];
}
