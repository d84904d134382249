/**
 * `/harbor freeze`, `/harbor unfreeze` and `/harbor freezes` without Slack
 * (issue 41): who may (policy operation `freeze.manage`, judged like any
 * request on the environment), what is stored (store/freeze-store.ts, so
 * every replica sees it), what the audit says, and neutral answers for the
 * renderer.
 */
import { randomUUID } from 'node:crypto';
import { UserError } from '../errors/user-error.js';
import { formatShorthand } from '../format/duration.js';
import { INSTANT_EXAMPLES } from '../format/instant.js';
import type { Policy } from '../policy/types.js';
import type { FreezeStore } from '../store/freeze-types.js';
import type { AuditStore } from '../store/types.js';
import { freezesInForce, manualFreeze, upcomingWindows } from './in-force.js';
import type { Freeze } from './types.js';

/** Who asks: a person in a channel of a workspace (as changes/authorize.ts's Asker). */
export interface FreezeAsker {
  user: string;
  channel: string;
  team: string;
}

export interface FreezesDeps {
  store: FreezeStore & Pick<AuditStore, 'appendAudit'>;
  policy: Policy;
  /** The environments that exist (the API's list; the configured ones when it cannot say). */
  environments(): Promise<string[]>;
  newId?: () => string;
}

export type FreezeAnswer =
  | {
      kind: 'frozen';
      freeze: Freeze;
      /** Freezes of the environment it replaced (people's). */
      replaced: Freeze[];
      /** Policy windows in force there now too. */
      windows: Freeze[];
      breakGlass: boolean;
    }
  | { kind: 'unfrozen'; env: string; ended: Freeze[]; windows: Freeze[] }
  | { kind: 'freezes'; active: Freeze[]; upcoming: Freeze[]; breakGlass: boolean };

/** How far ahead `until` may be: as far as a duration may last. */
const MAX_AHEAD_MS = 30 * 86_400_000;

const ENV_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export class Freezes {
  private readonly newId: () => string;

  constructor(private readonly d: FreezesDeps) {
    this.newId = d.newId ?? randomUUID;
  }

  private async checkEnv(env: string, known: readonly string[]): Promise<void> {
    if (!ENV_NAME.test(env)) {
      throw new UserError(
        `"${env}" is not an environment name: lowercase letters, digits and dashes, e.g. prod.`,
        'validation',
      );
    }
    if (known.length > 0 && !known.includes(env)) {
      throw new UserError(
        `There is no environment "${env}". Environments: ${known.join(', ')}.`,
        'not_found',
      );
    }
  }

  private async authorize(asker: FreezeAsker, env: string): Promise<void> {
    const decision = await this.d.policy.authorizeRequest({
      ...asker,
      operation: 'freeze.manage',
      target: { environment: env },
    });
    if (!decision.allowed) throw new UserError(decision.reason, 'refused');
  }

  /** Freezes `env` from `now`: for `forMs`, until `until`, or (neither) until someone unfreezes it. */
  async freeze(
    asker: FreezeAsker,
    request: { environment: string; forMs?: number; until?: number; reason?: string },
    now: number,
  ): Promise<FreezeAnswer> {
    const env = request.environment;
    await this.checkEnv(env, await this.d.environments());
    await this.authorize(asker, env);
    const until = request.forMs !== undefined ? now + request.forMs : request.until;
    if (until !== undefined && until <= now) {
      throw new UserError(
        `That time has passed: a freeze needs an end still ahead, like ${INSTANT_EXAMPLES}, or a duration like \`for 2h\`.`,
        'validation',
      );
    }
    if (until !== undefined && until - now > MAX_AHEAD_MS) {
      throw new UserError(
        `That is more than 30 days ahead (${formatShorthand(until - now)}); freeze it without an end and unfreeze it when done, or give an end within 30 days.`,
        'validation',
      );
    }
    const record = {
      id: this.newId(),
      env,
      createdBy: asker.user,
      createdAt: now,
      workspace: asker.team,
      channel: asker.channel,
      ...(until !== undefined ? { until } : {}),
      ...(request.reason ? { reason: request.reason } : {}),
    };
    const replaced = await this.d.store.addFreeze(record);
    await this.d.store.appendAudit({
      at: now,
      actor: asker.user,
      action: 'freeze',
      workspace: asker.team,
      channel: asker.channel,
      operation: 'freeze.manage',
      params: { environment: env, until: until ?? null, reason: request.reason ?? null },
      outcome: 'frozen',
      ...(replaced.length > 0 ? { detail: { replaced: replaced.map((r) => r.id) } } : {}),
    });
    return {
      kind: 'frozen',
      freeze: manualFreeze(record),
      replaced: replaced.map(manualFreeze),
      windows: await this.windowsNow(env, now),
      breakGlass: this.d.policy.breakGlass !== undefined,
    };
  }

  /** Ends the freezes people put on `env`; a policy window in force there stays (and is said). */
  async unfreeze(asker: FreezeAsker, env: string, now: number): Promise<FreezeAnswer> {
    if (!ENV_NAME.test(env)) await this.checkEnv(env, []);
    await this.authorize(asker, env);
    const ended = await this.d.store.endFreezes(env, asker.user, now);
    if (ended.length > 0) {
      await this.d.store.appendAudit({
        at: now,
        actor: asker.user,
        action: 'unfreeze',
        workspace: asker.team,
        channel: asker.channel,
        operation: 'freeze.manage',
        params: { environment: env },
        outcome: 'unfrozen',
        detail: { ended: ended.map((r) => r.id) },
      });
    }
    return {
      kind: 'unfrozen',
      env,
      ended: ended.map(manualFreeze),
      windows: await this.windowsNow(env, now),
    };
  }

  /** The freezes in force now (people's and the policy's windows) and the windows coming up in the next week. */
  async list(now: number): Promise<FreezeAnswer> {
    const stored = await this.d.store.listFreezes({ now });
    const known = await this.d.environments();
    const envs = [...new Set([...known, ...stored.map((r) => r.env)])].sort();
    const active = await freezesInForce(
      { store: this.d.store, windows: this.d.policy.freezeWindows },
      envs,
      now,
    );
    const upcoming = upcomingWindows(this.d.policy.freezeWindows, known, now);
    return { kind: 'freezes', active, upcoming, breakGlass: this.d.policy.breakGlass !== undefined };
  }

  private async windowsNow(env: string, now: number): Promise<Freeze[]> {
    const all = await freezesInForce(
      { store: { listFreezes: async () => [] }, windows: this.d.policy.freezeWindows },
      [env],
      now,
    );
    return all;
  }
}
