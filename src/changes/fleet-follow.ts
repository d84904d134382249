/**
 * Polling follow-ups for Armadas and ArmadaSets after a scale or a rollout:
 * each change of what the status says is posted once; the verdict decides
 * when it is over. Polls with the injected clock, like the Vessel follow-ups.
 *
 * `status.state` is a sync state (fleet-state.ts): Degraded means a Site could
 * not take the configuration, not that the build is bad, so it is explained
 * with the Sites behind it and watched, never called a stuck rollout. Where
 * the game server counts (ArmadaGameServerStates, fleet-servers.ts) or the
 * status report counts, a rollout whose counts stop moving is a stall; where
 * neither does, the follow-up ends on what it can see (Synced) and says the
 * rollout is not verified and where to look.
 */
import { type ArmadaServerStates, stateCountsText, upCount } from '../api-shapes/armada-server-states.js';
import { formatSpan } from '../format/duration.js';
import type { FleetKind } from '../gamefabric/client.js';
import {
  armadasOf,
  fleetServerStates,
  notUpCount,
  readServerRollout,
  readServerStates,
  rolloutCountsText,
  unreadableText,
} from './fleet-servers.js';
import { readSitesBehind } from './fleet-sites.js';
import {
  countsText,
  describeFleetState,
  type Fleet,
  fleetState,
  isDegraded,
  readRollout,
} from './fleet-state.js';
import type { FollowEvent, OperationContext } from './operation.js';
import { type SitesReading, sitesNote } from './site-join.js';

/**
 * A fleet's game server counts as one poll read them: `states` undefined when
 * the list was read but names no Armada of this fleet.
 */
export type FleetServers =
  | { kind: 'read'; states?: ArmadaServerStates }
  | { kind: 'unreadable'; status: number };

/** The follow is over (an event to post last) or goes on (undefined). */
export type FleetVerdict = (fleet: Fleet, servers?: FleetServers) => FollowEvent | undefined;

/**
 * Progress a follow-up expects to see move: a key that changes while it
 * moves (undefined: nothing to expect now), and the words for a stall.
 */
export interface FleetProgress {
  key(fleet: Fleet, servers?: FleetServers): string | undefined;
  stalled(fleet: Fleet, span: string, servers?: FleetServers): string;
}

/** "game servers: 4 Ready, 1 Allocated". */
const serversText = (s: ArmadaServerStates): string => `game servers: ${stateCountsText(s.states)}`;

/** The fleet's counts now (an ArmadaSet's over the Armadas it owns, which takes the Armada list). */
async function readFleetServers(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
): Promise<FleetServers> {
  const reading = await readServerStates(ctx.client, environment);
  if (reading.kind === 'unreadable') return reading;
  const owned = kind === 'ArmadaSet' ? await ctx.client.listArmadas(environment) : undefined;
  const states = fleetServerStates(reading.armadas, armadasOf(kind, name, owned));
  return { kind: 'read', ...(states ? { states } : {}) };
}

/** "Synced (configuration on every site) · 5 up, 4 ready" or "Degraded (reason; site x: Error)". */
export function describeFleet(fleet: Fleet, sites?: SitesReading): string {
  const state = fleetState(fleet);
  const text = describeFleetState(state, sites?.kind === 'read' ? sites.problems : []);
  const note = isDegraded(state) ? sitesNote(sites) : '';
  return note ? `${text}; ${note}` : text;
}

/**
 * Polls `kind` `name` until `verdict` ends it or the timeout passes. While
 * Degraded, the Sites behind it are read (once per change) to say why. With
 * `servers`, the fleet's game server counts are read on every poll too
 * (fleet-servers.ts) and handed to the verdict and the progress. When
 * `progress` is given and its key stays the same for `stallPolls` polls and at
 * least a fifth of the follow time (at most a minute), the follow-up ends
 * failed with the stall's words: a build that never becomes Ready does not
 * heal by waiting, while a slow wave between two polls must not be called stuck.
 */
export async function* watchFleet(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
  verdict: FleetVerdict,
  progress?: FleetProgress,
  options: { stallPolls?: number; servers?: boolean } = {},
): AsyncIterable<FollowEvent> {
  const stallPolls = options.stallPolls ?? 5;
  const deadline = ctx.clock.now() + ctx.follow.timeoutMs;
  const label = `${kind === 'Armada' ? 'Armada' : 'ArmadaSet'} ${name}`;
  let last: string | undefined;
  let lastKey: string | undefined;
  let unchanged = 0;
  let keyAt = ctx.clock.now();
  const stallMs = Math.min(60_000, ctx.follow.timeoutMs / 5);
  let sitesFor: { status: string; reading: SitesReading } | undefined;
  for (;;) {
    if (ctx.signal?.aborted) return;
    let fleet: Fleet;
    let servers: FleetServers | undefined;
    try {
      fleet =
        kind === 'Armada'
          ? await ctx.client.getArmada(environment, name)
          : await ctx.client.getArmadaSet(environment, name);
      if (options.servers) servers = await readFleetServers(ctx, kind, environment, name);
    } catch (err) {
      ctx.logger.warn('a follow-up could not read a fleet', { fleet: label, error: err });
      yield {
        kind: 'failed',
        message: `Stopped watching ${label}: the hosting API could not be read. Check with /harbor armadas ${environment}.`,
      };
      return;
    }
    const final = verdict(fleet, servers);
    if (final) {
      yield final;
      return;
    }
    const state = fleetState(fleet);
    const statusKey = `${state.sync}|${state.reason ?? ''}`;
    if (isDegraded(state) && sitesFor?.status !== statusKey) {
      try {
        sitesFor = { status: statusKey, reading: await readSitesBehind(ctx.client, environment, fleet) };
      } catch (err) {
        ctx.logger.warn('a follow-up could not read the Sites', { fleet: label, error: err });
        sitesFor = undefined;
      }
    }
    const servedText = servers?.kind === 'read' && servers.states ? ` · ${serversText(servers.states)}` : '';
    const now = `${describeFleet(fleet, isDegraded(state) ? sitesFor?.reading : undefined)}${servedText}`;
    if (now !== last) {
      last = now;
      yield {
        kind: 'progress',
        message: `${label}: ${now}${isDegraded(state) ? '; still watching, the platform keeps syncing' : ''}`,
      };
    }
    const key = progress?.key(fleet, servers);
    if (key === undefined || key !== lastKey) {
      lastKey = key;
      unchanged = 0;
      keyAt = ctx.clock.now();
    } else if (progress && ++unchanged >= stallPolls && ctx.clock.now() - keyAt >= stallMs) {
      yield {
        kind: 'failed',
        message: `${label}: ${progress.stalled(fleet, formatSpan(ctx.clock.now() - keyAt), servers)}`,
      };
      return;
    }
    if (ctx.clock.now() >= deadline) {
      yield {
        kind: 'timeout',
        message: `Stopped watching ${label} after ${formatSpan(ctx.follow.timeoutMs)}; last seen: ${now}`,
      };
      return;
    }
    try {
      await ctx.clock.sleep(ctx.follow.pollMs, ctx.signal);
    } catch {
      return; // aborted: the bot is stopping
    }
  }
}

/** The read that can tell whether a rollout's new servers run: the counts by build, when there are any. */
function serverRollout(servers: FleetServers | undefined, internalName: string) {
  if (servers?.kind !== 'read' || !servers.states) return undefined;
  const r = readServerRollout(servers.states, internalName);
  return r.kind === 'unattributed' ? undefined : r;
}

/** Why a rollout could not be verified, in a clause. */
function unverifiedWhy(servers: FleetServers | undefined): string {
  const status = 'its status reports no replica counts';
  if (servers?.kind === 'unreadable') return `${unreadableText(servers.status)} and ${status}`;
  if (servers?.kind === 'read' && servers.states)
    return `the game server counts (${stateCountsText(servers.states.states)}) do not say which build each server runs, and ${status}`;
  if (servers?.kind === 'read') return `armadagameserverstates lists no game servers of it, and ${status}`;
  return status;
}

/**
 * Follows a rollout of `kind` `name` to `label` (`image:tag`): first until
 * its template runs `internalName` (an ImageUpdater may switch it a moment
 * after the promotion), then on the game server counts by build where
 * ArmadaGameServerStates can be read, else on the status counts where it has
 * them: until every game server up runs the new build; counts that stop
 * moving end it failed (a build that cannot start). Without either, Synced
 * ends it, saying the rollout is not verified and where to look.
 */
export function watchRollout(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
  label: string,
  internalName: string,
): AsyncIterable<FollowEvent> {
  const what = `${kind} ${name} (${environment})`;
  const show = `/harbor ${kind === 'Armada' ? 'armada' : 'armadaset'} show ${environment} ${name}`;
  return watchFleet(
    ctx,
    kind,
    environment,
    name,
    (fleet, servers) => {
      const reading = readRollout(fleet, internalName);
      if (reading.kind === 'pending' || reading.kind === 'degraded') return undefined;
      const counted = serverRollout(servers, internalName);
      if (counted?.kind === 'complete') {
        const kept =
          counted.oldAllocated > 0
            ? `; ${counted.oldAllocated} allocated on the previous build keep running until their matches end`
            : '';
        return {
          kind: 'done',
          message: `${what}: every game server up runs ${label}: ${stateCountsText(counted.next)} (ArmadaGameServerStates)${kept}. ${describeFleet(fleet)}.`,
        };
      }
      if (counted) return undefined;
      if (reading.kind === 'complete') {
        return {
          kind: 'done',
          message: `${what}: every game server runs ${label}: ${describeFleet(fleet)}`,
        };
      }
      if (reading.kind === 'synced') {
        return {
          kind: 'done',
          evidence: 'synced',
          message: `${what} runs ${label} in its template and its configuration is synced to every site, but the rollout is *not verified*: ${unverifiedWhy(servers)}. Check that its new game servers become Ready in the GameFabric console's game server list (${kind} ${name}, environment ${environment}) or with \`${show}\`; a build that cannot start leaves the servers on the previous build running.`,
        };
      }
      return undefined;
    },
    {
      key: (fleet, servers) => {
        const counted = serverRollout(servers, internalName);
        if (counted?.kind === 'replacing') return `servers|${rolloutCountsText(counted)}`;
        const r = readRollout(fleet, internalName);
        if (r.kind !== 'replacing') return undefined;
        return `${r.updated}/${r.total}/${countsText(r.state.counts ?? {})}`;
      },
      stalled: (fleet, span, servers) => {
        const counted = serverRollout(servers, internalName);
        if (counted?.kind === 'replacing') {
          const failing = notUpCount(counted.next) > 0 || upCount(counted.next) === 0;
          return failing
            ? `the rollout to ${label} has not moved for ${span}: ${rolloutCountsText(counted)} (ArmadaGameServerStates). New game servers are not becoming Ready: the build may fail to start. Servers on the previous build keep running.`
            : `the rollout to ${label} has not moved for ${span}: ${rolloutCountsText(counted)} (ArmadaGameServerStates). Servers on the previous build are not being replaced.`;
        }
        const r = readRollout(fleet, internalName);
        const done = r.kind === 'replacing' ? `${r.updated} of ${r.total}` : 'not all';
        return `the rollout to ${label} has not moved for ${span}: ${done} game servers run it (${describeFleet(fleet)}). New game servers are not becoming Ready: the build may fail to start. Servers on the old build keep running.`;
      },
    },
    { servers: true },
  );
}
