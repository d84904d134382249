/**
 * The answers that make names discoverable (issue 18.9): the formations and
 * regions of an environment, each row with Show, and one vessel with Logs and
 * Delete. Compact and inside Slack's limits, as the other reads.
 */
import type { FormationSummary, RegionSummary, VesselView } from '../../changes/list-queries.js';
import { count as countOf } from '../../format/english.js';
import { context, escapeFit, finish, header, joinMapped, packItems, section } from './blocks.js';
import type { SlackMessage } from './message.js';
import { code, name, vesselActions } from './reads.js';
import { rowActions, rowsWithActions } from './row-actions.js';

const LIST_BLOCKS = 10;

/** The formations of an environment: vessels, template images, state; Show on each. */
export function renderFormations(environment: string, formations: FormationSummary[]): SlackMessage {
  const env = `environment *${name(environment)}*`;
  if (formations.length === 0) {
    return finish(`No formations in ${env}.`, [section(`No formations in ${env}.`)]);
  }
  const summary = `${countOf(formations.length, 'formation')} in ${env}`;
  const line = (f: FormationSummary) =>
    [
      `*${name(f.name)}*`,
      countOf(f.vessels, 'vessel'),
      ...(f.images.length ? [joinMapped(f.images, code, 400, ', ')] : []),
      ...(f.state ? [name(f.state)] : []),
    ].join(' · ');
  const show = (f: FormationSummary) => [
    {
      action: 'show' as const,
      command: `formation show ${environment} ${f.name}`,
      spoken: `Show formation ${f.name} in ${environment}`,
    },
  ];
  return finish(summary, [
    header(`Formations in ${environment}`),
    context(summary),
    ...(rowsWithActions(formations, line, show) ?? [
      ...packItems(formations, line, { maxBlocks: LIST_BLOCKS }),
      context(`Show one with \`/harbor formation show ${name(environment)} <formation>\`.`),
    ]),
  ]);
}

/** The regions of an environment with each type's scheduling; Show on each. */
export function renderRegions(environment: string, regions: RegionSummary[]): SlackMessage {
  const env = `environment *${name(environment)}*`;
  if (regions.length === 0) {
    return finish(`No regions in ${env}.`, [section(`No regions in ${env}.`)]);
  }
  const summary = `${countOf(regions.length, 'region')} in ${env}`;
  const line = (r: RegionSummary) =>
    [
      `*${name(r.name)}*${r.displayName ? ` (${name(r.displayName)})` : ''}`,
      r.types.length
        ? joinMapped(r.types, (t) => `\`${name(t.name)}\` ${name(t.scheduling)}`, 600, ', ')
        : 'no types',
    ].join(' · ');
  const show = (r: RegionSummary) => [
    {
      action: 'show' as const,
      command: `region show ${environment} ${r.name}`,
      spoken: `Show region ${r.name} in ${environment}`,
    },
  ];
  return finish(summary, [
    header(`Regions in ${environment}`),
    context(summary),
    ...(rowsWithActions(regions, line, show) ?? [
      ...packItems(regions, line, { maxBlocks: LIST_BLOCKS }),
      context(`Show one with \`/harbor region show ${name(environment)} <region>\`.`),
    ]),
  ]);
}

/** One vessel: region, state, formation, containers and their images; Logs and Delete. */
export function renderVessel(environment: string, v: VesselView): SlackMessage {
  const about = [
    `Vessel *${name(v.name)}* in environment *${name(environment)}*`,
    v.description ? escapeFit(v.description, 500) : '',
    `Region \`${name(v.region)}\` · ${name(v.state)} · ${v.formation ? `formation \`${name(v.formation)}\`` : 'no formation'}`,
  ].filter(Boolean);
  const container = (c: VesselView['containers'][number]) =>
    `• \`${name(c.name)}\` image ${code(c.image)}${c.branch ? ` from branch \`${name(c.branch)}\`` : ''}`;
  return finish(`Vessel ${name(v.name)} in ${name(environment)}: ${name(v.state)}`, [
    header(`Vessel ${v.name}`),
    section(about.join('\n')),
    section(
      v.containers.length
        ? `*Containers*\n${joinMapped(v.containers, container, 2900)}`
        : '*Containers*\nNo containers.',
    ),
    ...rowActions(vesselActions(environment, v, false)),
  ]);
}
