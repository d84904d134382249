/**
 * What a guard sees of the objects its change touched (issue 42), read with
 * the same readers and judged by the same rules as follow-ups and watches,
 * so a guard never claims more than they do:
 *
 * - new servers that do not become Ready: the new build's game servers by
 *   state (ArmadaGameServerStates, changes/fleet-servers.ts) show none Ready
 *   and some not up; only where the counts are reported;
 * - the Armada's own server trouble as watches judge it
 *   (watches/server-alerts.ts): `ScaleUpPanicked`, Scale to Zero's documented
 *   "no Ready servers" signal, or no Ready servers while a buffer is kept;
 * - the fleet Degraded (changes/fleet-state.ts);
 * - a Vessel of the target (the Vessel, or a Formation's) in Error.
 *
 * Each sighting names what it saw; the guard decides when it is due (the
 * watch settle time, except ScaleUpPanicked, which the platform already
 * waits several checks for).
 */
import type { Armada, ArmadaSet } from '../api-shapes/armada-resources.js';
import type { Vessel } from '../api-shapes/resources.js';
import {
  armadasOf,
  fleetServerStates,
  notUpCount,
  readServerRollout,
  readServerStates,
  readyCount,
  rolloutCountsText,
  type ServerStatesReading,
} from '../changes/fleet-servers.js';
import { describeFleetState, fleetState, isDegraded } from '../changes/fleet-state.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { serverTrouble } from '../watches/server-alerts.js';
import type { Touched } from './touched.js';

/** One thing a guard saw go wrong, keyed so its start is kept across passes and replicas. */
export interface Sighting {
  key: string;
  /** What it saw, in words: the trigger's text. */
  seen: string;
  /** Due at once (the platform already waited), not after the settle time. */
  now?: true;
}

/** The reads a guard makes (the API client is one). */
export type GuardSource = Pick<
  GameFabricClient,
  'listArmadas' | 'listArmadaSets' | 'listVessels' | 'listArmadaServerStates'
>;

/** An object's key as guards keep it: `<env>|<Kind>|<name>`. */
export const objectOf = (env: string, kind: string, name: string): string => `${env}|${kind}|${name}`;

/**
 * What the objects `touched` show now, one list per kind and environment;
 * `watched`: every object looked at (the targets, an ArmadaSet's Armadas, a
 * Formation's Vessels), so an alert on any of them can link to the guard.
 */
export async function sightings(
  source: GuardSource,
  touched: readonly Touched[],
): Promise<{ seen: Sighting[]; watched: string[] }> {
  const out: Sighting[] = [];
  const watched = new Set(touched.map((t) => objectOf(t.environment, t.kind, t.name)));
  for (const env of new Set(touched.map((t) => t.environment))) {
    const here = touched.filter((t) => t.environment === env);
    const fleets = here.filter((t) => t.kind === 'Armada' || t.kind === 'ArmadaSet');
    if (fleets.length > 0) {
      const armadas = await source.listArmadas(env);
      const sets = fleets.some((t) => t.kind === 'ArmadaSet') ? await source.listArmadaSets(env) : [];
      const reading = await readServerStates(source, env);
      for (const t of fleets) {
        out.push(...fleetSightings(t, armadas, sets, reading));
        for (const a of armadasOf(t.kind as 'Armada' | 'ArmadaSet', t.name, armadas))
          watched.add(objectOf(env, 'Armada', a));
      }
    }
    const others = here.filter((t) => t.kind === 'Vessel' || t.kind === 'Formation');
    if (others.length > 0) {
      const vessels = await source.listVessels(env);
      for (const t of others) {
        out.push(...vesselSightings(t, vessels));
        for (const v of vesselsOf(t, vessels)) watched.add(objectOf(env, 'Vessel', v.metadata.name));
      }
    }
  }
  return { seen: out, watched: [...watched].sort() };
}

/** The Vessels of a Vessel or Formation target. */
function vesselsOf(t: Touched, vessels: readonly Vessel[]): Vessel[] {
  return vessels.filter((v) =>
    t.kind === 'Vessel'
      ? v.metadata.name === t.name
      : v.metadata.ownerReferences?.some((o) => o.kind === 'Formation' && o.name === t.name),
  );
}

function fleetSightings(
  t: Touched,
  armadas: readonly Armada[],
  sets: readonly ArmadaSet[],
  reading: ServerStatesReading,
): Sighting[] {
  const kind = t.kind as 'Armada' | 'ArmadaSet';
  const fleet = (kind === 'Armada' ? armadas : sets).find((f) => f.metadata.name === t.name);
  // Gone: nothing left to roll back to either; the rollback's own guard would say so.
  if (!fleet) return [];
  const out: Sighting[] = [];
  const key = `${t.environment}/${kind}/${t.name}`;
  const state = fleetState(fleet);
  if (isDegraded(state))
    out.push({ key: `${key}/Degraded`, seen: `${kind} ${t.name} is ${describeFleetState(state)}` });
  const names = armadasOf(kind, t.name, armadas);
  const owned = armadas.filter((a) => names.includes(a.metadata.name));
  for (const o of serverTrouble(owned, reading, [])) {
    out.push({
      key: `${t.environment}/Armada/${o.name}/${o.state}`,
      seen: `Armada ${o.name}: ${o.state} (${o.reason ?? 'no reason given'})`,
      ...(o.state === 'ScaleUpPanicked' ? { now: true as const } : {}),
    });
  }
  const counts = reading.kind === 'read' ? fleetServerStates(reading.armadas, names) : undefined;
  const rollout = counts && readServerRollout(counts, t.image);
  if (rollout?.kind === 'replacing' && readyCount(rollout.next) === 0 && notUpCount(rollout.next) > 0) {
    out.push({
      key: `${key}/NewNotReady`,
      seen: `${kind} ${t.name}: its new servers do not become Ready (${rolloutCountsText(rollout)}; ArmadaGameServerStates)`,
    });
  }
  return out;
}

function vesselSightings(t: Touched, vessels: readonly Vessel[]): Sighting[] {
  return vesselsOf(t, vessels)
    .filter((v) => v.status?.state === 'Error')
    .map((v) => ({
      key: `${t.environment}/Vessel/${v.metadata.name}/Error`,
      seen: `Vessel ${v.metadata.name}${t.kind === 'Formation' ? ` of Formation ${t.name}` : ''} is in Error${v.status?.reason ? ` (${v.status.reason})` : ''}`,
    }));
}
