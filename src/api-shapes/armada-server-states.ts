/**
 * ArmadaGameServerStates (armada group): how many game servers of each Armada
 * are in which state. The resource is public by name only: the docs' API
 * example lists `GET /api/armada/v1/armadagameserverstates`
 * (GameFabric/docs `multiplayer-servers/authentication/service-accounts.md`)
 * and the provider's role example grants `armadagameserverstates` per
 * environment (GameFabric/terraform-provider-gamefabric
 * `examples/resources/gamefabric_role/single.tf`). Its response shape is not
 * public, so everything here is INFERRED and read liberally: unknown keys are
 * ignored, a missing or malformed count reads as absent, and one item that
 * makes no sense is skipped rather than failing the read. The simulator serves
 * the shape below (only under its `--server-states` flag).
 *
 * The shape looked for, per item (one per Armada):
 *   metadata.name (or `armada`): the Armada
 *   metadata.environment: where it runs (the cluster-wide list mixes environments)
 *   status.gameServers (or `states`): { Ready: 3, Allocated: 1, Starting: 0, ... }
 *     or [{ state: "Ready", count: 3 }, ...]
 *   status.regionTypes[]: { name, gameServers }
 *   status.revisions[]: { revision, images: [internal image name], gameServers }
 * each also accepted at the item's top level instead of under `status`.
 */
import { z } from 'zod';

/** The game server states the counts are usually given in (Agones' GameServer states, as GameFabric shows them). */
export const GAME_SERVER_STATES = [
  'Ready',
  'Allocated',
  'Starting',
  'Scheduled',
  'Unhealthy',
  'Error',
] as const;

/** States in which a game server serves or can serve players. */
export const UP_STATES: ReadonlySet<string> = new Set(['Ready', 'Allocated', 'Reserved']);

/** Counts by state name, as read (a state with no count is absent). */
export type StateCounts = Record<string, number>;

export interface RevisionStates {
  revision?: string;
  /** The internal image names this revision runs. */
  images: string[];
  states: StateCounts;
}

/** One Armada's game servers by state, as far as the item tells them. */
export interface ArmadaServerStates {
  armada: string;
  environment?: string;
  /** Counts of the whole Armada; summed from the revisions or types when the item gives no total. */
  states: StateCounts;
  byType: Map<string, StateCounts>;
  revisions: RevisionStates[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function count(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** `{Ready: 3}` or `[{state: "Ready", count: 3}]`; undefined when neither. */
function stateCounts(v: unknown): StateCounts | undefined {
  const out: StateCounts = {};
  if (Array.isArray(v)) {
    for (const e of v) {
      if (!isObject(e)) continue;
      const state = e.state ?? e.name;
      const n = count(e.count ?? e.value);
      if (typeof state === 'string' && state !== '' && n !== undefined) out[state] = (out[state] ?? 0) + n;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  if (!isObject(v)) return undefined;
  for (const [state, raw] of Object.entries(v)) {
    const n = count(raw);
    if (n !== undefined) out[state] = n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The first of `keys` in `obj` that holds state counts. */
function countsIn(obj: Record<string, unknown>): StateCounts | undefined {
  for (const key of ['gameServers', 'states', 'gameServerStates', 'counts']) {
    const c = stateCounts(obj[key]);
    if (c) return c;
  }
  return undefined;
}

function imagesOf(e: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof e.image === 'string') out.push(e.image);
  if (Array.isArray(e.images)) out.push(...e.images.filter((i): i is string => typeof i === 'string'));
  if (Array.isArray(e.containers)) {
    for (const c of e.containers) if (isObject(c) && typeof c.image === 'string') out.push(c.image);
  }
  return out;
}

/** Adds `b` into `a`. */
export function addCounts(a: StateCounts, b: StateCounts): StateCounts {
  const out = { ...a };
  for (const [s, n] of Object.entries(b)) out[s] = (out[s] ?? 0) + n;
  return out;
}

/** One item as an Armada's counts, or undefined when it names no Armada or holds no counts. */
export function readServerStatesItem(item: unknown): ArmadaServerStates | undefined {
  if (!isObject(item)) return undefined;
  const meta = isObject(item.metadata) ? item.metadata : {};
  const spec = isObject(item.spec) ? item.spec : {};
  const armada = [meta.name, item.armada, spec.armada].find(
    (n): n is string => typeof n === 'string' && n !== '',
  );
  if (!armada) return undefined;
  const environment = [meta.environment, item.environment].find((n): n is string => typeof n === 'string');
  const where = [isObject(item.status) ? item.status : undefined, item].filter(
    (o): o is Record<string, unknown> => o !== undefined,
  );
  let states: StateCounts | undefined;
  const byType = new Map<string, StateCounts>();
  const revisions: RevisionStates[] = [];
  for (const o of where) {
    states ??= countsIn(o);
    if (byType.size === 0 && Array.isArray(o.regionTypes)) {
      for (const t of o.regionTypes) {
        if (!isObject(t) || typeof t.name !== 'string') continue;
        const c = countsIn(t);
        if (c) byType.set(t.name, c);
      }
    }
    if (revisions.length === 0 && Array.isArray(o.revisions)) {
      for (const r of o.revisions) {
        if (!isObject(r)) continue;
        const c = countsIn(r);
        if (!c) continue;
        const rev =
          typeof r.revision === 'string' || typeof r.revision === 'number' ? String(r.revision) : undefined;
        revisions.push({ ...(rev !== undefined ? { revision: rev } : {}), images: imagesOf(r), states: c });
      }
    }
  }
  states ??=
    revisions.length > 0
      ? revisions.reduce<StateCounts>((sum, r) => addCounts(sum, r.states), {})
      : byType.size > 0
        ? [...byType.values()].reduce<StateCounts>((sum, c) => addCounts(sum, c), {})
        : undefined;
  if (!states) return undefined;
  return { armada, ...(environment !== undefined ? { environment } : {}), states, byType, revisions };
}

/** The list as sent: only `items` is looked at, and each item is read on its own. */
export const ServerStatesListSchema = z.looseObject({ items: z.array(z.unknown()).default([]) });

/** Every Armada's counts in a list body; items that cannot be read are left out. */
export function readServerStatesList(body: z.infer<typeof ServerStatesListSchema>): ArmadaServerStates[] {
  return body.items.map(readServerStatesItem).filter((x): x is ArmadaServerStates => x !== undefined);
}

/** Game servers in a state that serves or can serve players. */
export const upCount = (c: StateCounts): number =>
  Object.entries(c).reduce((n, [s, v]) => n + (UP_STATES.has(s) ? v : 0), 0);

/** Every game server counted. */
export const totalCount = (c: StateCounts): number => Object.values(c).reduce((n, v) => n + v, 0);

/** "3 Ready, 1 Allocated, 2 Unhealthy": the non-zero counts, in the usual state order first. */
export function stateCountsText(c: StateCounts): string {
  const known = GAME_SERVER_STATES as readonly string[];
  const order = [
    ...known,
    ...Object.keys(c)
      .filter((s) => !known.includes(s))
      .sort(),
  ];
  const parts = order.filter((s) => (c[s] ?? 0) > 0).map((s) => `${c[s]} ${s}`);
  return parts.length > 0 ? parts.join(', ') : 'no game servers';
}
