/**
 * What a rollback did, as its result facts store it (rolled back, where it
 * stopped and why, not tried, left out), and the result's line per original
 * that says so.
 */
import type { Line } from '../../operation.js';
import type { RollbackItem, Skipped } from './items.js';

/** What the rollback's result facts say, for the renderers and the release thread. */
export interface RollbackOutcome {
  rolledBack: string[];
  stopped?: { changeId: string; reason: string };
  notTried: string[];
  skipped: Skipped[];
}

/** One line per original: rolled back, refused (why), or not tried. */
export function resultLines(items: readonly RollbackItem[], o: RollbackOutcome): Line[] {
  return items.map((i) => ({
    label: `Change ${i.changeId}`,
    value: o.rolledBack.includes(i.changeId)
      ? `rolled back: ${i.inverseSummary}`
      : o.stopped?.changeId === i.changeId
        ? `not rolled back: ${underItsLabel(o.stopped.reason, i.changeId)}`
        : `not rolled back: not tried, the rollback stopped at change ${o.stopped?.changeId}`,
  }));
}

/**
 * A refusal worded to stand alone ("Cannot roll back change X: ...", "Change X was ...") as it
 * reads on the line already labelled "Change X": the id is not said twice.
 */
function underItsLabel(reason: string, changeId: string): string {
  const cannot = `Cannot roll back change ${changeId}: `;
  if (reason.startsWith(cannot)) return reason.slice(cannot.length);
  const subject = `Change ${changeId} `;
  return reason.startsWith(subject) ? `it ${reason.slice(subject.length)}` : reason;
}
