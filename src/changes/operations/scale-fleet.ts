/**
 * Scale one region type of an Armada (`armada.scale`) or of one region of an
 * ArmadaSet (`armadaset.scale`): min, max and buffer, each optional. The
 * replica rules (replica-rules.ts) are checked on the values given in parse
 * and on the merged values in plan, before any preview, naming the rule. An
 * Armada owned by an ArmadaSet is refused with a pointer to its ArmadaSet
 * (the set would put it back). The write touches that distribution entry only,
 * guarded against state that moved. Max 0 drains the region type: unallocated
 * game servers stop, allocated ones run until their match ends (docs
 * armada-replicas-and-buffer.md "Scaling down"), so it is not destructive;
 * the preview says what stops and what keeps running.
 */

import {
  type Armada,
  type ArmadaSet,
  armadaSetOwner,
  type Distribution,
  hasDynamicBuffer,
  replicaCounts,
} from '../../api-shapes/armada-resources.js';
import { type ReplicaValues, replicaRuleProblems } from '../../api-shapes/replica-rules.js';
import { UserError } from '../../errors/user-error.js';
import {
  ArmadaMovedError,
  type FleetKind,
  type GameFabricClient,
  RegionNotInArmadaSetError,
  RegionTypeNotInDistributionError,
  type ReplicaSettings,
} from '../../gamefabric/client.js';
import { WorldMovedError } from '../errors.js';
import { describeFleet, watchFleet } from '../fleet-follow.js';
import { readFleet } from '../fleet-read.js';
import { fleetState, isSynced, scaleToZeroStates } from '../fleet-state.js';
import { guardedWriteLines } from '../guarded-write-note.js';
import type { OperationModule, Preview } from '../operation.js';
import {
  COUNT_FIELDS,
  COUNT_WORDS,
  type ScaleFleetRequest,
  scaleArmadaSchema,
  scaleArmadaSetSchema,
} from '../requests/fleets.js';
import { parseRequest } from '../requests/vocabulary.js';

const WORD = COUNT_WORDS;

const valuesOf = (d: ReplicaSettings): ReplicaValues => ({
  minReplicas: d.minReplicas ?? 0,
  maxReplicas: d.maxReplicas ?? 0,
  bufferSize: d.bufferSize ?? 0,
});

const text = (v: ReplicaValues) => `min ${v.minReplicas}, buffer ${v.bufferSize}, max ${v.maxReplicas}`;

/** A UserError naming each replica rule `next` breaks, or nothing. */
function checkRules(where: string, next: ReplicaValues): void {
  const problems = replicaRuleProblems(next);
  if (problems.length > 0) {
    throw new UserError(
      `Cannot scale ${where} to ${text(next)}: ${problems.map((p) => p.message).join('; ')} (the rules: max >= min and max >= buffer; buffer > 0 when max > 0; min >= buffer when min > 0; setting all three to 0 drains it).`,
      'validation',
    );
  }
}

/**
 * An Armada its ArmadaSet owns is scaled through the set, which would put
 * the replicas back: the command and the form (before it opens) refuse it alike.
 */
export function refuseOwnedArmada(armada: Armada, environment: string): void {
  refuseOwned(armada.metadata.name, armadaSetOwner(armada), armada.spec.region, environment);
}

/** The same refusal from the names alone (a form has the Armada's picker data, not the Armada). */
export function refuseOwned(
  name: string,
  owner: string | undefined,
  region: string,
  environment: string,
): void {
  if (!owner) return;
  throw new UserError(
    `Armada ${name} is owned by ArmadaSet ${owner}, which puts its replicas back: scale the ArmadaSet instead (armadaset scale ${environment} ${owner} --region ${region} ...).`,
    'refused',
  );
}

/** What a scale preview notes whatever the values: how the autoscaler reads them. */
/** What a scale recorded when it applied (its undo), and the request its restore (scale-fleet-restore.ts) sets back. */
export interface ScaleSet {
  fleet: FleetKind;
  environment: string;
  name: string;
  /** The ArmadaSet's region; absent for an Armada. */
  region?: string;
  type: string;
  before: ReplicaValues;
  after: ReplicaValues;
}

export const SCALE_NOTES: readonly string[] = [
  'The autoscaler keeps between min and max game servers, with buffer of them Ready for new matches.',
];

/**
 * The warnings of a scale of one region type (`entry` of `fleet`, `where` in
 * words) to `next`, for the forward preview and a rollback to the same values
 * alike: a buffer set under a dynamic buffer is overridden by the platform; max
 * 0 is the documented graceful drain (docs armada-replicas-and-buffer.md
 * "Scaling down": allocated game servers run until they shut down), so it
 * names the allocated ones where an Armada's status counts them.
 */
export function scaleWarnings(o: {
  kind: FleetKind;
  fleet: Armada | ArmadaSet;
  entry: Distribution;
  type: string;
  where: string;
  next: ReplicaValues;
  bufferSet: boolean;
}): string[] {
  // An ArmadaSet's status has no per-type counts.
  const counts = o.kind === 'ArmadaSet' ? undefined : replicaCounts(o.fleet.status).byType.get(o.type);
  const allocated = counts?.allocatedReplicas;
  return [
    ...(hasDynamicBuffer(o.entry) && o.bufferSet
      ? [
          `Dynamic buffer is on for region type ${o.type}: the platform sets its buffer size and will override the ${o.next.bufferSize} you set. Min and max still apply.`,
        ]
      : []),
    ...(o.next.maxReplicas === 0
      ? [
          `Max 0 drains region type ${o.type} of ${o.where}: no new game servers start there and unallocated ones stop${
            allocated !== undefined
              ? `; the ${allocated} allocated ${allocated === 1 ? 'one keeps' : 'ones keep'} running until ${allocated === 1 ? 'its match ends' : 'their matches end'}`
              : '; allocated ones keep running until their match ends'
          }. Scaling it up again undoes it.`,
        ]
      : []),
  ];
}

interface Located {
  fleet: Armada | ArmadaSet;
  entry: Distribution;
  type: string;
  where: string;
}

function scaleOperation(kind: FleetKind): OperationModule<ScaleFleetRequest> {
  const isSet = kind === 'ArmadaSet';
  const noun = isSet ? 'ArmadaSet' : 'armada';

  const read = (client: GameFabricClient, r: ScaleFleetRequest, afterPreview = false) =>
    readFleet(client, kind, r.environment, r.name, afterPreview);

  function locate(fleet: Armada | ArmadaSet, r: ScaleFleetRequest): Located {
    let entries: Distribution[];
    let where = `${noun} ${r.name}`;
    if (isSet) {
      const regions = (fleet as ArmadaSet).spec.armadas;
      const region = regions.find((x) => x.region === r.region);
      if (!region) {
        const names = regions.map((x) => x.region).join(', ') || 'none';
        throw new UserError(
          `ArmadaSet ${r.name} has no region ${r.region} (its regions: ${names}).`,
          'not_found',
        );
      }
      entries = region.distribution;
      where = `ArmadaSet ${r.name} in ${r.region}`;
    } else {
      refuseOwnedArmada(fleet as Armada, r.environment);
      entries = (fleet as Armada).spec.distribution;
    }
    const types = entries.map((e) => e.name);
    const type = r.type ?? (types.length === 1 ? types[0] : undefined);
    if (type === undefined) {
      throw new UserError(
        types.length === 0
          ? `${where} has no region types to scale.`
          : `${where} has ${types.length} region types (${types.join(', ')}): say which with --type.`,
        'validation',
      );
    }
    const entry = entries.find((e) => e.name === type);
    if (!entry) {
      throw new UserError(
        `${where} has no region type ${type} (its types: ${types.join(', ') || 'none'}).`,
        'not_found',
      );
    }
    return { fleet, entry, type, where: `${where}, region type ${type}` };
  }

  const nextOf = (entry: Distribution, r: ScaleFleetRequest): ReplicaValues => ({
    ...valuesOf(entry),
    ...Object.fromEntries(COUNT_FIELDS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]])),
  });

  return {
    parse: (input) => parseRequest(isSet ? scaleArmadaSetSchema : scaleArmadaSchema, input),

    target: (r) => ({
      environment: r.environment,
      ...(isSet ? { armadaSet: r.name, ...(r.region ? { region: r.region } : {}) } : { armada: r.name }),
    }),

    async plan(ctx, r): Promise<Preview> {
      const { fleet, entry, type, where } = locate(await read(ctx.client, r), r);
      const before = valuesOf(entry);
      const next = nextOf(entry, r);
      checkRules(where, next);
      if (COUNT_FIELDS.every((k) => before[k] === next[k])) {
        throw new UserError(`${where} already has ${text(next)}; nothing to change.`, 'noop');
      }
      const warnings = scaleWarnings({
        kind,
        fleet,
        entry,
        type,
        where: isSet ? `ArmadaSet ${r.name} in ${r.region}` : `armada ${r.name}`,
        next,
        bufferSet: r.bufferSize !== undefined,
      });
      const notes = [...SCALE_NOTES];
      return {
        summary: `Scale ${where} (${r.environment}): ${text(before)} → ${text(next)}`,
        lines: [
          { label: isSet ? 'ArmadaSet' : 'Armada', value: `${r.name} (${r.environment})` },
          ...(isSet ? [{ label: 'Region', value: r.region ?? '' }] : []),
          { label: 'Region type', value: type },
          ...COUNT_FIELDS.map((k) => ({
            label: WORD[k].charAt(0).toUpperCase() + WORD[k].slice(1),
            value: before[k] === next[k] ? String(next[k]) : `${before[k]} → ${next[k]}`,
          })),
          { label: 'Now', value: describeFleet(fleet) },
        ],
        notes,
        destructive: false,
        ...(warnings.length > 0 ? { warnings } : {}),
        facts: { before, next, type },
      };
    },

    async apply(ctx, { request: r, preview }) {
      const type = String(preview.facts.type);
      const before = preview.facts.before as ReplicaValues;
      const next = preview.facts.next as ReplicaValues;
      try {
        const written = await ctx.client.setDistribution(
          { kind, env: r.environment, name: r.name, type, ...(isSet ? { region: r.region } : {}) },
          before,
          next,
        );
        return {
          summary: `Scaled ${isSet ? `ArmadaSet ${r.name} in ${r.region}` : `armada ${r.name}`} (${r.environment}), region type ${type}: ${text(next)} (was ${text(before)})`,
          lines: guardedWriteLines(noun, written),
          facts: { type, next },
          undo: {
            fleet: kind,
            environment: r.environment,
            name: r.name,
            ...(isSet && r.region ? { region: r.region } : {}),
            type,
            before,
            after: next,
          } satisfies ScaleSet,
        };
      } catch (err) {
        if (err instanceof ArmadaMovedError) {
          throw new WorldMovedError(
            `Region type ${type} of ${r.name} changed since the preview (was ${err.expected}, now ${err.actual}); nothing was changed.`,
          );
        }
        if (err instanceof RegionTypeNotInDistributionError || err instanceof RegionNotInArmadaSetError) {
          throw new WorldMovedError(`${err.message} any more; nothing was changed.`);
        }
        throw err;
      }
    },

    async verify(ctx, { request: r, preview }) {
      const fleet = await read(ctx.client, r);
      const { entry } = locate(fleet, { ...r, type: String(preview.facts.type) });
      const next = preview.facts.next as ReplicaValues;
      return COUNT_FIELDS.every((k) => valuesOf(entry)[k] === next[k]) ? 'applied' : 'not_applied';
    },

    follow(ctx, { request: r, preview }) {
      const type = String(preview.facts.type);
      const next = preview.facts.next as ReplicaValues;
      const what = isSet ? `ArmadaSet ${r.name}` : `Armada ${r.name}`;
      // With counts, the scaled type's servers within min..max and all started (a drain: only the
      // allocated ones left, which run until their match ends). Without counts, or for an ArmadaSet
      // (its status has no per-type counts), Synced is all the API shows.
      return watchFleet(ctx, kind, r.environment, r.name, (fleet) => {
        const state = fleetState(fleet);
        if (!isSynced(state)) return undefined;
        // Parked by Scale to Zero: no servers to count until it is scaled up, and that is not an outage.
        if (scaleToZeroStates(fleet.status).get(type) === 'ScaledToZero') {
          return {
            kind: 'done',
            evidence: 'synced',
            message: `${what} (${r.environment}), region type ${type}: configuration synced to every site; the type is parked at zero by Scale to Zero, and the new values apply when it is scaled up.`,
          };
        }
        const c = state.byType.get(type);
        if (isSet || c?.replicas === undefined) {
          return {
            kind: 'done',
            evidence: 'synced',
            message: `${what} (${r.environment}), region type ${type}: configuration synced to every site; how many game servers run is *not verified* (${isSet ? 'an ArmadaSet status has no per-type counts' : 'its status reports no replica counts'}). Check the GameFabric console's game server list or \`/harbor ${isSet ? 'armadaset' : 'armada'} show ${r.environment} ${r.name}\`.`,
          };
        }
        const allocated = c.allocatedReplicas ?? 0;
        const started = (c.readyReplicas ?? 0) + allocated >= c.replicas;
        const floor = Math.min(next.minReplicas, next.maxReplicas);
        const ceiling = Math.max(next.maxReplicas, allocated);
        if (c.replicas < floor || c.replicas > ceiling || !started) return undefined;
        const kept =
          next.maxReplicas === 0 && allocated > 0
            ? `; ${allocated} allocated keep running until their matches end`
            : '';
        return { kind: 'done', message: `${what} scaled: ${describeFleet(fleet)}${kept}` };
      });
    },
  };
}

export const scaleArmada = scaleOperation('Armada');
export const scaleArmadaSet = scaleOperation('ArmadaSet');
