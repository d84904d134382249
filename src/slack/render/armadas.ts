/**
 * Answers to `armadas`, `armada show` and `armadaset show`: fleets that are
 * not Synced first, one item per fleet so a long list is cut between fleets
 * (never inside one), with "… and N more" and the counts of every fleet in the
 * summary, whatever the number of armadas.
 */

import type { ReplicaCounts } from '../../api-shapes/armada-resources.js';
import { stateCountsText } from '../../api-shapes/armada-server-states.js';
import type { ArmadasView, FleetView, TypeRow } from '../../changes/armada-queries.js';
import { unreadableText } from '../../changes/fleet-servers.js';
import { describeSite } from '../../changes/fleet-state.js';
import { sitesNote, sitesUnknownText } from '../../changes/site-join.js';
import { count as countOf } from '../../format/english.js';
import { context, escapeFit, finish, header, joinMapped, packItems, section } from './blocks.js';
import type { SlackMessage } from './message.js';
import { type RowActionSpec, rowsWithActions } from './row-actions.js';

const LIST_BLOCKS = 10;
const NAME_MAX = 200;

const name = (text: string) => escapeFit(text, NAME_MAX);
const code = (text: string) => `\`${name(text.replace(/`/g, "'"))}\``;

/** "5 up, 4 ready, 1 allocated"; a count the status does not give is "?". */
export function countsText(c: ReplicaCounts): string {
  if (c.replicas === undefined && c.readyReplicas === undefined && c.allocatedReplicas === undefined) {
    return 'counts not reported by the API';
  }
  const n = (v: number | undefined) => (v === undefined ? '?' : String(v));
  return `${n(c.replicas)} up, ${n(c.readyReplicas)} ready, ${n(c.allocatedReplicas)} allocated`;
}

/** Scale to Zero states (docs scale-to-zero.md), said so that a type parked at zero does not read as an outage. */
const SCALE_TO_ZERO: Record<string, string> = {
  ScaledToZero:
    '_scaled to zero by Scale to Zero (parked while a higher-priority type has room; not an outage)_',
  ScaledUp: 'scaled up by Scale to Zero',
  ScaleUpPanicked: '*scaled up in a panic* by Scale to Zero (no Ready game servers for several checks)',
  ScaledUpLocked: 'highest priority: never scaled to zero',
};

/** "eu-central/baremetal: min 4 · buffer 2 · max 12 · 4 up, 2 ready, 2 allocated". */
function typeLine(t: TypeRow, withRegion: boolean): string {
  const where = withRegion ? `${name(t.region)}/${name(t.type)}` : name(t.type);
  const buffer = t.dynamicBuffer ? 'dynamic buffer' : `buffer ${t.bufferSize}`;
  const drained = t.maxReplicas === 0 ? ' · _drained_' : '';
  const parked = t.scaleToZero
    ? ` · ${SCALE_TO_ZERO[t.scaleToZero] ?? `Scale to Zero: ${name(t.scaleToZero)}`}`
    : '';
  return `\`${where}\` min ${t.minReplicas} · ${buffer} · max ${t.maxReplicas}${drained}${parked} · ${countsText(t)}`;
}

/** The Sites behind a Degraded fleet, or that they could not be read; "" otherwise. */
function sitesText(f: FleetView): string {
  if (!f.sites) return '';
  if (f.sites.kind === 'unknown') return `Sites: unknown: ${name(sitesUnknownText(f.sites.why))}.`;
  if (f.sites.problems.length === 0) return `Sites: ${sitesNote(f.sites)}.`;
  return `Sites behind it: ${joinMapped(f.sites.problems, (p) => name(describeSite(p)), 1000, '; ')}`;
}

/** The game servers by state (ArmadaGameServerStates), or why they are not known; "" for list answers. */
function serversText(f: FleetView): string {
  const s = f.servers;
  if (!s) return '';
  const statusCounts = countsText(f.totals) !== 'counts not reported by the API';
  if (s.kind === 'unreadable' || s.kind === 'unlisted') {
    const why =
      s.kind === 'unreadable'
        ? name(unreadableText(s.status))
        : 'armadagameserverstates lists none of this fleet';
    return statusCounts
      ? `Game servers by state: not known (${why}).`
      : `Game servers: *not known*: ${why}, and the status reports no counts. Check the GameFabric console's game server list.`;
  }
  const builds =
    s.byBuild.length > 1
      ? `\n${joinMapped(s.byBuild, (b) => `    ${code(b.image)}: ${name(stateCountsText(b.states))}`, 1200, '\n')}`
      : '';
  return `Game servers: ${name(stateCountsText(s.states))} _(ArmadaGameServerStates)_${builds}`;
}

function stateText(f: FleetView): string {
  const state = f.state === 'Synced' ? 'Synced' : `*${name(f.state)}*`;
  return f.reason ? `${state} (${name(f.reason)})` : state;
}

function updaterText(f: FleetView, known: boolean): string {
  if (!known || f.updaters === undefined) return 'ImageUpdaters unknown';
  // An owned armada runs what its ArmadaSet's template says: the ArmadaSet's ImageUpdater rolls it out.
  if (f.updaters.length === 0)
    return f.owner ? `rolled out with ArmadaSet \`${name(f.owner)}\`` : 'no ImageUpdater';
  return `ImageUpdater ${joinMapped(f.updaters, name, 300, ', ')}`;
}

function fleetItem(f: FleetView, updatersKnown: boolean): string {
  const multiRegion = f.kind === 'ArmadaSet';
  const head = [
    `*${name(f.name)}*${f.kind === 'ArmadaSet' ? ' (ArmadaSet)' : ''}`,
    joinMapped(f.regions, (r) => `\`${name(r)}\``, 200, ', '),
    stateText(f),
    joinMapped(f.containers, (c) => code(c.image), 300, ', '),
    f.owner ? `owned by ArmadaSet \`${name(f.owner)}\`` : '',
    updaterText(f, updatersKnown),
  ].filter(Boolean);
  const types = f.types.map((t) => `    ${typeLine(t, multiRegion)}`);
  return [head.join(' · '), ...types].join('\n');
}

// Problems first: "why is it Degraded" is the question a long list must answer at a glance.
function problemsFirst(fleets: readonly FleetView[]): FleetView[] {
  return [...fleets].sort((a, b) => Number(a.state === 'Synced') - Number(b.state === 'Synced'));
}

function stateCounts(fleets: readonly FleetView[]): string {
  const counts = new Map<string, number>();
  for (const f of fleets) counts.set(f.state, (counts.get(f.state) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([state, n]) => `${n} ${name(state)}`)
    .join(', ');
}

/** Every Armada and ArmadaSet of an environment. */
export function renderArmadas(view: ArmadasView): SlackMessage {
  const env = `environment *${name(view.environment)}*`;
  if (view.fleets.length === 0) {
    return finish(`No armadas in ${env}.`, [section(`No armadas or ArmadaSets in ${env}.`)]);
  }
  const sets = view.fleets.filter((f) => f.kind === 'ArmadaSet').length;
  const armadas = view.fleets.length - sets;
  const summary = `${countOf(armadas, 'armada')} and ${countOf(sets, 'ArmadaSet')} in ${env}: ${stateCounts(view.fleets)}`;
  return finish(summary, [
    header(`Armadas and ArmadaSets in ${view.environment}`),
    context(
      view.updatersKnown
        ? summary
        : `${summary}. ImageUpdaters could not be read, so which fleets they roll out is unknown.`,
    ),
    ...(rowsWithActions(
      problemsFirst(view.fleets),
      (f) => fleetItem(f, view.updatersKnown),
      (f) => [showFleet(view.environment, f)],
    ) ??
      packItems(problemsFirst(view.fleets), (f) => fleetItem(f, view.updatersKnown), {
        maxBlocks: LIST_BLOCKS,
        maxLineLength: 2900,
      })),
  ]);
}

// Show on a row: `armada show` or `armadaset show`, as typed.
function showFleet(environment: string, f: ArmadasView['fleets'][number]): RowActionSpec {
  const word = f.kind === 'ArmadaSet' ? 'armadaset' : 'armada';
  const kind = f.kind === 'ArmadaSet' ? 'ArmadaSet' : 'armada';
  return {
    action: 'show',
    command: `${word} show ${environment} ${f.name}`,
    spoken: `Show ${kind} ${f.name} in ${environment}`,
  };
}

/** One Armada or ArmadaSet, the whole picture. */
export function renderFleet(environment: string, f: FleetView, commandName = '/harbor'): SlackMessage {
  const kind = f.kind === 'ArmadaSet' ? 'ArmadaSet' : 'Armada';
  const about = [
    `${kind} *${name(f.name)}* in environment *${name(environment)}*`,
    f.description ? escapeFit(f.description, 500) : '',
    `State: ${stateText(f)} · ${countsText(f.totals)}`,
    serversText(f),
    sitesText(f),
    `Region${f.regions.length === 1 ? '' : 's'}: ${joinMapped(f.regions, (r) => `\`${name(r)}\``, 400, ', ')}`,
    f.owner
      ? `Owned by ArmadaSet \`${name(f.owner)}\`: change it there (\`${commandName} armadaset show ${name(environment)} ${name(f.owner)}\`), or the ArmadaSet puts this armada back.`
      : '',
    updaterText(f, true) === 'ImageUpdaters unknown'
      ? 'ImageUpdaters: could not be read.'
      : f.updaters?.length
        ? `New images rolled out by ImageUpdater ${joinMapped(f.updaters, name, 400, ', ')}`
        : f.owner
          ? `New images come with ArmadaSet \`${name(f.owner)}\``
          : `New images: no ImageUpdater rolls this out; roll it out with \`${commandName} ${f.kind === 'ArmadaSet' ? 'armadaset' : 'armada'} image\`.`,
  ].filter(Boolean);
  const container = (c: FleetView['containers'][number]) =>
    `• \`${name(c.name)}\` image ${code(c.image)}${c.branch ? ` from branch \`${name(c.branch)}\`` : ''}${
      c.internalName ? ` _(internal ${code(c.internalName)})_` : ''
    }`;
  const strategy = f.strategy?.recreate
    ? 'Recreate: an image change replaces every unallocated game server at once'
    : f.strategy
      ? `Rolling update: max surge ${name(f.strategy.maxSurge ?? 'default')}, max unavailable ${name(f.strategy.maxUnavailable ?? 'default')}`
      : '';
  const template = [
    `*Template*\n${f.containers.length ? joinMapped(f.containers, container, 2400) : 'No containers.'}`,
    strategy,
  ]
    .filter(Boolean)
    .join('\n');
  const owned = f.owned?.length
    ? [
        section(
          `*Armadas*\n${joinMapped(
            f.owned,
            (o) =>
              `• \`${name(o.region)}\`: *${name(o.name)}* ${o.state === 'Synced' ? 'Synced' : `*${name(o.state)}*`}${
                o.reason ? ` (${name(o.reason)})` : ''
              }`,
            2900,
          )}`,
        ),
      ]
    : [];
  const summary = `${kind} ${name(f.name)} in ${name(environment)}: ${f.state}, ${countsText(f.totals)}`;
  return finish(summary, [
    header(`${kind} ${f.name}`),
    section(about.join('\n')),
    section(template),
    context(`Replicas per region type (${countOf(f.types.length, 'type')})`),
    ...(f.types.length
      ? packItems(f.types, (t) => typeLine(t, f.kind === 'ArmadaSet'), { maxBlocks: LIST_BLOCKS })
      : [section('No region types: this fleet runs no game servers.')]),
    ...owned,
  ]);
}
