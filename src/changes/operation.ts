/**
 * The contract every change operation module fulfils. The engine owns the
 * lifecycle (store, policy, claiming, audit); a module only knows how to read
 * the world (plan), act on it (apply), tell afterwards whether it acted
 * (verify, for crash recovery) and watch the aftermath (follow).
 */
import type { FreezeScope } from '../freezes/types.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import type { ChangeOperation, Target } from '../policy/operations.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { RollbackLedger } from './rollback/ledger.js';
import type { Undo } from './rollback/undo.js';

/** One labelled value in a preview or result, e.g. { label: 'Target branch', value: 'prod' }. */
export interface Line {
  label: string;
  value: string;
  /** Detail for the curious (internal names, ids): shown small, after what people read. */
  secondary?: boolean;
  /** The value is a person's user id (e.g. who made a change): renderers name them as a mention. */
  person?: boolean;
}

/** What a change will do, as data a renderer can show. */
export interface Preview {
  /** One sentence, e.g. "Promote game-server:1.2.0 from dev to prod". */
  summary: string;
  lines: Line[];
  /** Things the user should know before confirming (e.g. scheduling applies only to new servers). */
  notes: string[];
  /** Lists shown under the preview, e.g. a Formation's current vessels. */
  lists?: { title: string; items: string[] }[];
  /** Whether the change removes something (renderers use a danger-style confirmation). */
  destructive: boolean;
  /**
   * What makes a destructive change worse than it looks, one sentence each
   * (e.g. it removes the last Vessel of a Formation): shown above the preview
   * and in the confirmation dialog.
   */
  warnings?: string[];
  /** Facts the apply step re-checks (internal image name, index, previous value, ...). */
  facts: Record<string, unknown>;
}

/** What a change did. */
export interface Result {
  summary: string;
  lines: Line[];
  /** Ids a follow-up or a later issue needs (vessel name to tail, promotion name, ...). */
  facts: Record<string, unknown>;
  /**
   * What a rollback of this change needs, from this apply's own reads and the
   * API's answer (stored in its own column, not in `result`); absent when the
   * operation has no inverse.
   */
  undo?: Undo;
}

/** A step in the aftermath of an applied change, posted in the change's thread. */
export interface FollowEvent {
  kind: 'progress' | 'done' | 'failed' | 'timeout';
  message: string;
  /** A Vessel the follow-up is about (the Slack layer offers "Tail logs" on it). */
  vessel?: { environment: string; name: string };
  /** The state the follow-up saw ("Scheduled", "gone"): the change's own message shows the latest. */
  state?: string;
  /**
   * On a final `done`: what it rests on. Absent: the API showed the change
   * complete. `synced`: the configuration reached every Site, and no counts
   * could be read to verify more (Armadas and ArmadaSets: not verified).
   */
  evidence?: 'synced';
}

export interface OperationContext {
  client: GameFabricClient;
  clock: Clock;
  logger: Logger;
  /** How often follow-ups poll, and how long they keep at it. */
  follow: { pollMs: number; timeoutMs: number };
  /** The configured environments, for when the API refuses to list them. */
  environments: readonly string[];
  /** Ends a follow-up early (the bot is shutting down). */
  signal?: AbortSignal;
  /** The earlier changes a rollback reads and claims (change.rollback only). */
  ledger?: RollbackLedger;
}

/** The stored, validated request and the facts of its preview, as apply/verify see them. */
interface ApplyInput<Req> {
  request: Req;
  preview: Preview;
  /** Idempotency key fixed when the change was created (e.g. the ImagePromotion name). */
  applyToken: string;
  /** The change being applied (a rollback claims its originals in its own name). */
  changeId?: string;
}

export interface OperationModule<Req = unknown> {
  /** Validates untrusted input into a typed request; throws ValidationError listing every problem. */
  parse(input: unknown): Req;
  /** What the policy should judge this request by. */
  target(request: Req): Target;
  /**
   * When the policy judges more than one (operation, target) pair, read from
   * the store (a rollback: change.rollback on each original's target and the
   * inverse operation): every one must allow the request, and the strictest
   * requirement among them is the change's.
   */
  judgements?(ctx: OperationContext, request: Req): Promise<{ operation: ChangeOperation; target: Target }[]>;
  /**
   * Where the change writes, as a freeze judges it (issue 41), when that is
   * not just its target's environment: a promotion rolls out to the
   * environments its preview lists; a rollback writes where its inverses do.
   */
  freezeScope?(request: Req, preview: Preview): FreezeScope;
  /** Reads current state and describes the change; throws UserError when it cannot be done. */
  plan(ctx: OperationContext, request: Req): Promise<Preview>;
  /** Re-checks the preview against the world and performs the change. */
  apply(ctx: OperationContext, input: ApplyInput<Req>): Promise<Result>;
  /** After an interruption: did the change reach the API? Reads only. */
  verify(ctx: OperationContext, input: ApplyInput<Req>): Promise<'applied' | 'not_applied'>;
  /** Watches the aftermath of a successful apply. */
  follow?(ctx: OperationContext, input: ApplyInput<Req>, result: Result): AsyncIterable<FollowEvent>;
}
