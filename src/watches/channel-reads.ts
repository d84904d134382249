/**
 * What a watching channel may read (issue 29): a channel is alerted only
 * about objects its policy lets that channel read, judged with the read
 * operation that shows each kind (the catalogue's `shows`) on the object's
 * own target, so a rule
 * restricting a region or a name to another channel keeps those alerts out.
 */
import { describe, OPERATIONS, type Operation, type Target, type TargetField } from '../operations/index.js';
import type { Policy } from '../policy/types.js';
import { WATCH_KINDS, type WatchKind } from '../store/watch-types.js';
import type { ReadSubject } from './observe.js';
import type { ChannelMayRead } from './types.js';

const PLURALS: Record<WatchKind, string> = {
  Armada: 'Armadas',
  ArmadaSet: 'ArmadaSets',
  Formation: 'Formations',
  Vessel: 'Vessels',
};

/** The read that shows an object of each kind (its descriptor says `shows`), and the target field naming it. */
export const KIND_READS = Object.fromEntries(
  WATCH_KINDS.map((kind) => {
    const operation = OPERATIONS.find((op) => describe(op).shows?.kind === kind);
    const shows = operation && describe(operation).shows;
    if (!operation || !shows) throw new Error(`no read in the catalogue shows a ${kind}`);
    return [kind, { operation, field: shows.field, plural: PLURALS[kind] }];
  }),
) as Record<WatchKind, { operation: Operation; field: TargetField; plural: string }>;

/** The target a read of `o` in `env` is judged on. */
export function readTarget(env: string, o: ReadSubject): Target {
  return {
    environment: env,
    [KIND_READS[o.kind].field]: o.name,
    ...(o.region !== undefined ? { region: o.region } : {}),
  };
}

/** Alerts go to a channel only for objects its policy lets the channel read. */
export function policyMayRead(policy: Pick<Policy, 'authorizeChannelRead'>): ChannelMayRead {
  return async (sub, o) => {
    const { operation } = KIND_READS[o.kind];
    return (
      await policy.authorizeChannelRead({ channel: sub.channel, operation, target: readTarget(sub.env, o) })
    ).allowed;
  };
}

/** Per kind, whether the channel may read that kind in `env` at all, and why not. */
export async function channelCoverage(
  policy: Pick<Policy, 'authorizeChannelRead'>,
  channel: string,
  env: string,
): Promise<{ kind: WatchKind; plural: string; allowed: boolean; reason?: string }[]> {
  const kinds = Object.keys(KIND_READS) as WatchKind[];
  return Promise.all(
    kinds.map(async (kind) => {
      const { operation, plural } = KIND_READS[kind];
      const d = await policy.authorizeChannelRead({ channel, operation, target: { environment: env } });
      return d.allowed ? { kind, plural, allowed: true } : { kind, plural, allowed: false, reason: d.reason };
    }),
  );
}
