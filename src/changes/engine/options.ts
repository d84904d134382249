/** What the change engine is built from, and the inputs of its requests and clicks. */
import type { GameFabricClient } from '../../gamefabric/client.js';
import type { Policy } from '../../policy/types.js';
import type { PolicyNames } from '../../policy/words.js';
import type { Clock } from '../../runtime/clock.js';
import type { ReleaseEvents } from '../../runtime/events.js';
import type { Logger } from '../../runtime/logger.js';
import type { FreezeStore } from '../../store/freeze-types.js';
import type { GuardStore } from '../../store/guard-types.js';
import type { ApprovalStore, AuditStore, ChangeOrigin, ChangeStore, LeaseStore } from '../../store/types.js';
import type { ChangeEvents } from '../events.js';
import type { GuardAsk } from '../guard-choice.js';
import type { ChangeInput } from '../requests/index.js';

/** The parts of the store the engine uses: changes, their approvals and audit, apply leases, and the freezes in force. */
export type ChangeEngineStore = ChangeStore &
  ApprovalStore &
  AuditStore &
  LeaseStore &
  Pick<FreezeStore, 'listFreezes'> &
  Pick<GuardStore, 'createGuard'>;

export interface ChangeEngineOptions {
  client: GameFabricClient;
  store: ChangeEngineStore;
  policy: Policy;
  clock: Clock;
  logger: Logger;
  /** This process's name in claims and leases. */
  replicaId: string;
  newId?: () => string;
  /**
   * How follow-ups poll and how long they keep at it; `resumeAfterMs`: how long after its apply
   * a follow-up nobody runs is resumed by housekeeping (default: the apply lease's TTL, by when
   * the click's own follow-up has long taken its lease).
   */
  follow?: { pollMs?: number; timeoutMs?: number; resumeAfterMs?: number };
  /** The configured environments (HARBOR_ENVIRONMENTS): used where the API will not list them. */
  environments?: readonly string[];
  /** TTL of an apply's lease (renewed every third of it while the apply runs): how soon a dead owner's change is recovered. */
  applyLeaseMs?: number;
  /** Told when a change of a release is requested or moves, so what shows the release can redraw. */
  releaseEvents?: ReleaseEvents;
  /** How long after a change applies Roll back is offered (HARBOR_ROLLBACK_DAYS; default 7 days). */
  rollbackWindowMs?: number;
  /** Told when a change moves or a follow-up learns something, so what shows the change can redraw. */
  changeEvents?: ChangeEvents;
  /** How freeze refusals write people and instants (Slack: mentions and date tokens); plain words without it. */
  names?: PolicyNames;
  /**
   * Scheduled changes (`--at`): how far ahead one may be scheduled (HARBOR_SCHEDULE_MAX_DAYS, default 30 days)
   * and how late after its time a replica may still apply it (HARBOR_SCHEDULE_GRACE_S, default 600 s).
   */
  schedule?: { maxAheadMs?: number; graceMs?: number };
}

/** A change to request: the operation and its input (validated again by the operation's schema before any API call), who asks, from where. */
export type RequestInput = ChangeInput & {
  requester: string;
  origin: ChangeOrigin;
  /** `--break-glass <reason>`: go through a freeze in force, with the break-glass approvers' approval. */
  breakGlass?: string;
  /** `--at <time>` or a form's When field, as typed: the change applies then (changes/schedule/when.ts reads it). */
  at?: string;
  /** `--guard <duration>` or `--no-guard` (issue 42): asked of the rule's guard (guard-choice.ts). */
  guard?: GuardAsk;
};

export interface ClickInput {
  changeId: string;
  user: string;
  channel: string;
  /** Why an approver rejects (reject only); kept with the change and in the audit. */
  reason?: string;
  /** The clicker's workspace (Slack team id), judged by the policy and written to the audit. */
  team: string;
  /** The click is the end of the change's release withdrawing it (told with the click's event). */
  releaseEnd?: true;
}
