/**
 * The `sites [<region>]` answer (issue 38.1): each Site with its state,
 * reason and cordon, the Locations that list it, and the fleets behind it per
 * environment; what the answer could not cover is said (environments left
 * out, fleets not permitted, links that could not be read), never guessed.
 */

import { sitesUnknownText } from '../../changes/site-join.js';
import type { LeftOut, SitesView, SiteView } from '../../changes/site-queries.js';
import { count as countOf } from '../../format/english.js';
import { context, finish, header, joinMapped, packItems, section } from './blocks.js';
import type { SlackMessage } from './message.js';
import { name } from './reads.js';

const LIST_BLOCKS = 20;

function stateText(s: SiteView): string {
  const state = s.state === 'Connected' ? 'Connected' : `*${name(s.state)}*`;
  const reason = s.reason ? ` (${name(s.reason)})` : '';
  return `${state}${reason}${s.cordoned ? ' · *cordoned*' : ''}`;
}

/** "behind it: dev: Armada `duel` (eu-central), ArmadaSet `arena` (eu-central)"; "at least" when the join was partial. */
function fleetsText(s: SiteView, unknown: boolean): string {
  if (s.fleets.length === 0) return unknown ? 'fleets behind it unknown' : 'no fleet behind it';
  const byEnv = new Map<string, string[]>();
  for (const f of s.fleets) {
    const list = byEnv.get(f.environment) ?? [];
    list.push(`${f.kind} \`${name(f.name)}\` (${name(f.region)})`);
    byEnv.set(f.environment, list);
  }
  const parts = [...byEnv].map(([env, fleets]) => `${name(env)}: ${joinMapped(fleets, (x) => x, 600, ', ')}`);
  return `behind it${unknown ? ' (at least)' : ''}: ${parts.join('; ')}`;
}

function line(s: SiteView, unknown: boolean): string {
  const where = s.locations.length ? `Location ${joinMapped(s.locations, name, 200, ', ')}` : '';
  return [`*${name(s.name)}*`, stateText(s), ...(where ? [where] : []), fleetsText(s, unknown)].join(' · ');
}

function leftOutText(l: LeftOut): string {
  if (l.why === 'not-permitted') return `${name(l.environment)} (not permitted)`;
  if (l.why === 'fleets-not-permitted') return `the fleets of ${name(l.environment)} (not permitted)`;
  return `${name(l.environment)} (its ${l.why.what} could not be read: HTTP ${l.why.status})`;
}

/** The Sites and the fleets behind each. */
export function renderSites(v: SitesView): SlackMessage {
  const title = v.region ? `Sites of region ${v.region}` : 'Sites';
  const down = v.sites.filter((s) => s.state !== 'Connected').length;
  const cordoned = v.sites.filter((s) => s.cordoned).length;
  const envs = v.environments.length ? `fleets of ${v.environments.join(', ')}` : 'no environment read';
  const summary = `${countOf(v.sites.length, 'Site')}${v.region ? ` of region ${v.region}` : ''}: ${down} not Connected, ${cordoned} cordoned · ${envs}`;
  const notes: string[] = [];
  if (v.unknown) {
    const what = v.region
      ? `Which Sites make up region ${v.region}, and which fleets are behind each,`
      : 'Which fleets are behind each Site';
    notes.push(`${what} is unknown: ${sitesUnknownText(v.unknown)}.`);
  }
  if (v.leftOut.length) notes.push(`Left out: ${v.leftOut.map(leftOutText).join(', ')}.`);
  const body =
    v.sites.length === 0
      ? [
          section(
            v.region
              ? `No Site is listed by the Locations of region *${name(v.region)}*.`
              : 'The API lists no Site.',
          ),
        ]
      : packItems(v.sites, (s) => line(s, v.unknown !== undefined), { maxBlocks: LIST_BLOCKS });
  return finish(summary, [
    header(title),
    context(name(summary)),
    ...body,
    ...notes.map((n) => context(name(n))),
  ]);
}
