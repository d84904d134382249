/**
 * Answers to read commands (images, vessels, formation, region, approvals):
 * compact lists that stay inside Slack's limits whatever the API returns,
 * cutting long lists with "… and N more".
 */

import { argsText } from '../../changes/args-text.js';
import type { FormationView, ImageGroup, RegionView, VesselSummary } from '../../changes/queries.js';
import { count as countOf } from '../../format/english.js';
import { context, escapeFit, finish, header, joinMapped, packItems, section } from './blocks.js';
import type { SlackMessage } from './message.js';
import { type RowActionSpec, rowsWithActions } from './row-actions.js';

export { renderApprovals } from './approvals.js';

// Ten full sections are already far more than anyone reads in a channel.
const LIST_BLOCKS = 10;
const NAME_MAX = 200;

/** Images in a branch, one line per image with its tags in the given (newest-first) order. */
export function renderImages(branch: string, groups: ImageGroup[], ref?: string): SlackMessage {
  const where = `branch *${name(branch)}*${ref ? ` matching \`${name(ref)}\`` : ''}`;
  if (groups.length === 0) {
    const hint = ref
      ? `Check the image name and tag, or list the whole branch: \`/harbor images ${name(branch)}\`.`
      : 'Check the branch name; images appear in a branch when they are pushed or promoted to it.';
    return finish(`No images in ${where}.`, [section(`No images in ${where}.\n${hint}`)]);
  }
  const tags = groups.reduce((n, g) => n + g.tags.length, 0);
  const counts = `${countOf(groups.length, 'image')}, ${countOf(tags, 'tag')} in ${where}`;
  const line = (g: ImageGroup) =>
    `*${name(g.image)}*  ${joinMapped(g.tags, (t) => `\`${name(t.tag)}\``, 600, ', ')}`;
  // Promote offers an image's newest tag; the form lets the person pick another.
  const promote = (g: ImageGroup): RowActionSpec[] => {
    const ref = g.tags[0] ? `${g.image}:${g.tags[0].tag}` : undefined;
    return ref
      ? [
          {
            action: 'promote',
            command: `promote ${ref} from ${branch}`,
            spoken: `Promote ${ref} from ${branch}`,
          },
        ]
      : [];
  };
  return finish(counts, [
    header(`Images in ${branch}`),
    context(counts),
    ...(rowsWithActions(groups, line, promote) ?? packItems(groups, line, { maxBlocks: LIST_BLOCKS })),
  ]);
}

/** Vessels in an environment: name, region, state (with reason) and owning formation. */
export function renderVessels(environment: string, vessels: VesselSummary[]): SlackMessage {
  const env = `environment *${name(environment)}*`;
  if (vessels.length === 0) {
    return finish(`No vessels in ${env}.`, [section(`No vessels in ${env}.`)]);
  }
  const summary = `${countOf(vessels.length, 'vessel')} in ${env}: ${stateCounts(vessels.map((v) => v.state))}`;
  const line = (v: VesselSummary) =>
    [
      `*${name(v.name)}*`,
      `region \`${name(v.region)}\``,
      name(v.state),
      ...(v.images.length ? [joinMapped(v.images, code, 400, ', ')] : []),
      v.formation ? `formation \`${name(v.formation)}\`` : 'no formation',
    ].join(' · ');
  const rows = rowsWithActions(vessels, line, (v) => vesselActions(environment, v, true));
  return finish(summary, [
    header(`Vessels in ${environment}`),
    context(summary),
    ...(rows ?? [
      ...packItems(vessels, line, { maxBlocks: LIST_BLOCKS }),
      context(`Show one with \`/harbor vessel show ${name(environment)} <vessel>\`.`),
    ]),
  ]);
}

/**
 * Logs, Show (left out on the vessel's own answer) and Delete for one vessel;
 * a formation's vessel gets Remove (`formation remove`) instead, since
 * deleting it directly is refused.
 */
export function vesselActions(
  environment: string,
  v: { name: string; formation?: string },
  withShow: boolean,
): RowActionSpec[] {
  const vessel = v.name;
  const where = `${vessel} in ${environment}`;
  return [
    { action: 'logs', command: `logs ${environment} ${vessel}`, spoken: `Logs of vessel ${where}` },
    ...(withShow
      ? [
          {
            action: 'show' as const,
            command: `vessel show ${environment} ${vessel}`,
            spoken: `Show vessel ${where}`,
          },
        ]
      : []),
    v.formation
      ? {
          action: 'remove',
          command: `formation remove ${environment} ${v.formation} ${vessel}`,
          spoken: `Remove vessel ${vessel} from formation ${v.formation} in ${environment}`,
        }
      : {
          action: 'delete',
          command: `vessel delete ${environment} ${vessel}`,
          spoken: `Delete vessel ${where}`,
        },
  ];
}

/** A formation: template containers, then its vessels by index with region, overrides and live state. */
export function renderFormation(environment: string, view: FormationView): SlackMessage {
  const f = view.formation;
  const title = `Formation *${name(f.metadata.name)}* in environment *${name(environment)}*`;
  const about = [
    title,
    f.spec.description ? escapeFit(f.spec.description, 500) : '',
    f.status?.state
      ? `Status: ${name(f.status.state)}${f.status.reason ? ` (${name(f.status.reason)})` : ''}`
      : '',
  ].filter(Boolean);
  const containers = view.containers;
  const container = (c: (typeof containers)[number]) =>
    `• \`${name(c.name)}\` image ${code(c.image)}${c.branch ? ` from branch \`${name(c.branch)}\`` : ''}${
      c.internalName ? ` _(internal ${code(c.internalName)})_` : ''
    }`;
  const template = containers.length
    ? `*Template*\n${joinMapped(containers, container, 2900)}`
    : '*Template*\nNo containers in the template.';
  const vesselLine = (v: FormationView['vessels'][number]) =>
    [
      `\`#${v.index}\` *${name(v.name)}*`,
      `region \`${name(v.region)}\``,
      name(v.state),
      ...(v.overrides.length ? [`overrides: ${joinMapped(v.overrides, override, 400, '; ')}`] : []),
    ].join(' · ');
  const count = view.vessels.length
    ? `${countOf(view.vessels.length, 'vessel')}: ${stateCounts(view.vessels.map((v) => v.state))}`
    : 'no vessels';
  return finish(`Formation ${name(f.metadata.name)} in ${name(environment)}: ${count}`, [
    header(`Formation ${f.metadata.name}`),
    section(about.join('\n')),
    section(template),
    context(view.vessels.length ? count : 'This formation has no vessels.'),
    // Logs and Show on each vessel; removing one from the formation is `formation remove`.
    ...(rowsWithActions(view.vessels, vesselLine, (v) =>
      vesselActions(environment, { name: v.name, formation: f.metadata.name }, true),
    ) ?? packItems(view.vessels, vesselLine, { maxBlocks: LIST_BLOCKS })),
  ]);
}

/** A region: each type's scheduling strategy and locations. */
export function renderRegion(environment: string, view: RegionView): SlackMessage {
  const r = view.region;
  const about = [
    `Region *${name(r.metadata.name)}* in environment *${name(environment)}*`,
    r.spec.displayName ? `Display name: ${name(r.spec.displayName)}` : '',
    r.spec.description ? escapeFit(r.spec.description, 500) : '',
  ].filter(Boolean);
  const line = (t: RegionView['types'][number]) =>
    `*${name(t.name)}* · scheduling *${name(t.scheduling)}* · ${
      t.locations.length
        ? `locations: ${joinMapped(t.locations, (l) => `\`${name(l)}\``, 800, ', ')}`
        : 'no locations'
    }`;
  const count = countOf(view.types.length, 'type');
  return finish(`Region ${name(r.metadata.name)} in ${name(environment)}: ${count}`, [
    header(`Region ${r.metadata.name}`),
    section(about.join('\n')),
    ...(view.types.length
      ? packItems(view.types, line, { maxBlocks: LIST_BLOCKS })
      : [section('This region has no types, so nothing can be scheduled in it.')]),
  ]);
}

/** Names come from users and the API: escaped, and cut so one cannot crowd out the rest. */
export function name(text: string): string {
  return escapeFit(text, NAME_MAX);
}

/** Text from users or the API as inline code, so `_de_dust_` stays literal; backticks inside could end the code. */
export function code(text: string): string {
  return `\`${name(text.replace(/`/g, "'"))}\``;
}

// "game-server: image `game-server:1.2.0`, args `--mode lobby`"
function override(o: FormationView['vessels'][number]['overrides'][number]): string {
  const parts = [
    o.image ? `image ${code(o.image)}` : '',
    o.command ? `command ${code(argsText(o.command))}` : '',
    o.args ? `args ${code(argsText(o.args))}` : '',
    o.envCount ? countOf(o.envCount, 'environment variable') : '',
  ];
  return `${name(o.container)}: ${parts.filter(Boolean).join(', ') || 'no changes'}`;
}

/** "10 Running, 2 Error": states without their reasons, most common first. */
export function stateCounts(states: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const s of states) {
    const paren = s.indexOf(' (');
    const state = paren > 0 ? s.slice(0, paren) : s;
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  const parts = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([state, n]) => `${n} ${name(state)}`);
  return joinMapped(parts, (p) => p, 500, ', ');
}
