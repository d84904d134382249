/**
 * Who is in the local workspace: a few demo people to switch between, the
 * user groups examples/policy.yml names (so its approval rules work as
 * written), and the channels the page offers. Ids follow Slack's shapes.
 */
import type { DirectoryOptions } from './directory.js';

export interface Person {
  id: string;
  name: string;
  realName: string;
  /** What they do, shown in the "you are" switcher. */
  role: string;
}

export interface UserGroup {
  id: string;
  handle: string;
  name: string;
  members: string[];
}

export interface Channel {
  id: string;
  name: string;
}

export const PEOPLE: readonly Person[] = [
  { id: 'U0ALICE', name: 'alice', realName: 'Alice Moreau', role: 'game team' },
  { id: 'U0DAVE', name: 'dave', realName: 'Dave Okafor', role: 'game team' },
  { id: 'U0BOB', name: 'bob', realName: 'Bob Lindqvist', role: 'SRE on call' },
  { id: 'U0CAROL', name: 'carol', realName: 'Carol Tanaka', role: 'SRE' },
];

/** The groups examples/policy.yml names: S01TEAMDEV (developers) and S02SRE (SREs). */
export const USER_GROUPS: readonly UserGroup[] = [
  { id: 'S01TEAMDEV', handle: 'game-team', name: 'Game team', members: ['U0ALICE', 'U0DAVE'] },
  { id: 'S02SRE', handle: 'sre', name: 'SRE on-call', members: ['U0BOB', 'U0CAROL'] },
];

export const CHANNELS: readonly Channel[] = [
  { id: 'C0HARBORDEV', name: 'harbor-dev' },
  { id: 'C0HARBORPROD', name: 'harbor-prod' },
];

/** The stand-in's directory filled with the people, groups and channels above. */
export function workspaceDirectory(): DirectoryOptions {
  return {
    usergroups: Object.fromEntries(USER_GROUPS.map((g) => [g.id, [...g.members]])),
    channels: Object.fromEntries(CHANNELS.map((c) => [c.id, c.name])),
    // Everyone is in every channel: Home lists each person the open alerts of the demo channels.
    members: Object.fromEntries(CHANNELS.map((c) => [c.id, PEOPLE.map((p) => p.id)])),
    users: Object.fromEntries(PEOPLE.map((p) => [p.id, { name: p.name, realName: p.realName }])),
  };
}
