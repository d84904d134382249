/**
 * Scale one region type of an Armada (`armada.scale`) or of one region of an
 * ArmadaSet (`armadaset.scale`): min, max and buffer, each optional. The
 * replica rules (replica-rules.ts) are checked on the values given in parse
 * and on the merged values in plan, before any preview, naming the rule. An
 * Armada owned by an ArmadaSet is refused with a pointer to its ArmadaSet
 * (the set would put it back). The write touches that distribution entry only,
 * guarded by a `test` of the entry the preview showed. Max 0 drains the region
 * type: destructive, with a warning that allocated matches end.
 */

import { UserError } from '../../errors/user-error.js';
import { rereads } from '../../format/english.js';
import {
  type Armada,
  type ArmadaSet,
  armadaSetOwner,
  type Distribution,
  replicaCounts,
} from '../../gamefabric/armada-resources.js';
import {
  ArmadaMovedError,
  type FleetKind,
  type GameFabricClient,
  RegionNotInArmadaSetError,
  RegionTypeNotInDistributionError,
  type ReplicaSettings,
} from '../../gamefabric/client.js';
import { type ReplicaValues, replicaRuleProblems } from '../../gamefabric/replica-rules.js';
import { WorldMovedError } from '../errors.js';
import { describeFleet, watchFleet } from '../fleet-follow.js';
import { readFleet } from '../fleet-read.js';
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
      const owner = armadaSetOwner(fleet as Armada);
      if (owner) {
        const region = (fleet as Armada).spec.region;
        throw new UserError(
          `Armada ${r.name} is owned by ArmadaSet ${owner}, which puts its replicas back: scale the ArmadaSet instead (armadaset scale ${r.environment} ${owner} --region ${region} ...).`,
          'refused',
        );
      }
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
    id: isSet ? 'armadaset.scale' : 'armada.scale',

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
      const drain = next.maxReplicas === 0;
      const counts = isSet ? undefined : replicaCounts(fleet.status).byType.get(type);
      const notes = [
        'The autoscaler keeps between min and max game servers, with buffer of them Ready for new matches.',
        ...(entry.dynamicBuffer?.enabled && r.bufferSize !== undefined
          ? ['Dynamic buffer is on for this region type: the buffer you set is overwritten by it.']
          : []),
      ];
      const allocated = counts?.allocatedReplicas;
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
        destructive: drain,
        ...(drain
          ? {
              warnings: [
                `Max 0 drains region type ${type} of ${isSet ? `ArmadaSet ${r.name} in ${r.region}` : `armada ${r.name}`}: every game server there stops${
                  allocated
                    ? `, and the ${allocated} allocated ${allocated === 1 ? 'match ends' : 'matches end'}`
                    : ', and allocated matches end'
                }. Scaling it up again undoes it.`,
              ],
            }
          : {}),
        facts: { before, next, type },
      };
    },

    async apply(ctx, { request: r, preview }) {
      const type = String(preview.facts.type);
      const before = preview.facts.before as ReplicaValues;
      const next = preview.facts.next as ReplicaValues;
      try {
        const { attempts } = await ctx.client.setDistribution(
          { kind, env: r.environment, name: r.name, type, ...(isSet ? { region: r.region } : {}) },
          before,
          next,
        );
        return {
          summary: `Scaled ${isSet ? `ArmadaSet ${r.name} in ${r.region}` : `armada ${r.name}`} (${r.environment}), region type ${type}: ${text(next)} (was ${text(before)})`,
          lines:
            attempts > 1
              ? [
                  {
                    label: 'Note',
                    value: `the ${noun} changed meanwhile; re-read it ${rereads(attempts - 1)}`,
                  },
                ]
              : [],
          facts: { type, next },
          undo: {
            kind: 'fleet.scale',
            fleet: kind,
            environment: r.environment,
            name: r.name,
            ...(isSet && r.region ? { region: r.region } : {}),
            type,
            before,
            after: next,
          },
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
      // The scaled type's servers within min..max and all started; an ArmadaSet reports only totals: Synced.
      return watchFleet(ctx, kind, r.environment, r.name, (fleet) => {
        if (fleet.status?.state !== 'Synced') return undefined;
        const c = replicaCounts(fleet.status).byType.get(type);
        if (!isSet && c?.replicas !== undefined) {
          const started = (c.readyReplicas ?? 0) + (c.allocatedReplicas ?? 0) >= c.replicas;
          if (c.replicas < next.minReplicas || c.replicas > next.maxReplicas || !started) return undefined;
        }
        return {
          kind: 'done',
          message: `${isSet ? 'ArmadaSet' : 'Armada'} ${r.name} scaled: ${describeFleet(fleet)}`,
        };
      });
    },
  };
}

export const scaleArmada = scaleOperation('Armada');
export const scaleArmadaSet = scaleOperation('ArmadaSet');
