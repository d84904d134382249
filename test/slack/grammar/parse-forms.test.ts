import { describe, expect, it } from '@jest/globals';
import type { Command } from '../../../src/slack/grammar/command.js';
import { parseCommand } from '../../../src/slack/grammar/parse.js';

function command(text: string): Command {
  const result = parseCommand(text);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(text)} to parse, got: ${result.usage.problem}`);
  return result.command;
}

const VALID: [string, Command][] = [
  ['', { kind: 'help' }],
  ['   ', { kind: 'help' }],
  ['help', { kind: 'help' }],
  ['help formations', { kind: 'help', topic: 'formations' }],
  ['HELP Formation add', { kind: 'help', topic: 'Formation add' }],
  ['--help', { kind: 'help' }],
  ['images dev', { kind: 'images', branch: 'dev' }],
  ['sites', { kind: 'sites' }],
  ['sites eu-central', { kind: 'sites', region: 'eu-central' }],
  ['images dev game-server', { kind: 'images', branch: 'dev', ref: 'game-server' }],
  ['images dev game-server:1.2.0', { kind: 'images', branch: 'dev', ref: 'game-server:1.2.0' }],
  [
    'promote game-server:1.2.0 from dev to prod',
    {
      kind: 'change',
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
    },
  ],
  [
    'promote game-server:1.2.0 to prod from dev',
    {
      kind: 'change',
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
    },
  ],
  [
    'Promote game-server:1.2.0 FROM dev TO prod',
    {
      kind: 'change',
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
    },
  ],
  ['promote', { kind: 'modal', modal: 'promote' }],
  ['vessels dev', { kind: 'vessels', environment: 'dev' }],
  ['vessel create dev', { kind: 'modal', modal: 'vessel.create', environment: 'dev' }],
  [
    'vessel delete dev lobby-3',
    { kind: 'change', operation: 'vessel.delete', input: { environment: 'dev', vessel: 'lobby-3' } },
  ],
  ['formation show dev lobby', { kind: 'formation.show', environment: 'dev', formation: 'lobby' }],
  [
    'formation add dev lobby lobby-3 eu-central',
    {
      kind: 'change',
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-3',
        region: 'eu-central',
        overrides: [],
      },
    },
  ],
  [
    'formation add dev lobby lobby-3 eu-central --container game-server --image game-server:1.2.0 --args "--mode ranked"',
    {
      kind: 'change',
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-3',
        region: 'eu-central',
        overrides: [{ container: 'game-server', image: 'game-server:1.2.0', args: ['--mode', 'ranked'] }],
      },
    },
  ],
  [
    `formation add dev lobby lobby-3 eu-central --container a --args "--name 'Big Lobby' -v" --container b --image b:2 --container c --args ""`,
    {
      kind: 'change',
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-3',
        region: 'eu-central',
        overrides: [
          { container: 'a', args: ['--name', 'Big Lobby', '-v'] },
          { container: 'b', image: 'b:2' },
          { container: 'c', args: [] },
        ],
      },
    },
  ],
  [
    'formation add dev lobby lobby-3 eu-central --container=a --image=a:1 --args=--solo',
    {
      kind: 'change',
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-3',
        region: 'eu-central',
        overrides: [{ container: 'a', image: 'a:1', args: ['--solo'] }],
      },
    },
  ],
  [
    'formation add dev lobby',
    { kind: 'modal', modal: 'formation.add', environment: 'dev', formation: 'lobby' },
  ],
  [
    'formation remove dev lobby lobby-3',
    {
      kind: 'change',
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-3' },
    },
  ],
  ['region show dev eu-central', { kind: 'region.show', environment: 'dev', region: 'eu-central' }],
  ['region create dev', { kind: 'modal', modal: 'region.create', environment: 'dev' }],
  // Without the last arguments, the form asks for them.
  ['formation remove dev', { kind: 'modal', modal: 'formation.remove', environment: 'dev' }],
  [
    'formation remove dev lobby',
    { kind: 'modal', modal: 'formation.remove', environment: 'dev', formation: 'lobby' },
  ],
  ['region scheduling dev', { kind: 'modal', modal: 'region.scheduling', environment: 'dev' }],
  [
    'region scheduling dev eu-central baremetal',
    {
      kind: 'modal',
      modal: 'region.scheduling',
      environment: 'dev',
      region: 'eu-central',
      regionType: 'baremetal',
    },
  ],
  ['logs dev', { kind: 'modal', modal: 'logs.follow', environment: 'dev' }],
  [
    'region scheduling prod eu-central baremetal Distributed',
    {
      kind: 'change',
      operation: 'region.scheduling',
      input: { environment: 'prod', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
    },
  ],
  [
    'region scheduling prod eu-central baremetal pACKED',
    {
      kind: 'change',
      operation: 'region.scheduling',
      input: { environment: 'prod', region: 'eu-central', type: 'baremetal', scheduling: 'Packed' },
    },
  ],
  ['approvals', { kind: 'approvals' }],
  ['watch prod', { kind: 'watch', environment: 'prod' }],
  ['watches', { kind: 'watches' }],
  ['unwatch prod', { kind: 'unwatch', environment: 'prod' }],
  ['logs dev lobby-3', { kind: 'logs', environment: 'dev', vessel: 'lobby-3', follow: false, lines: 50 }],
  [
    'logs dev lobby-3 --follow --lines 100 --container sidecar',
    { kind: 'logs', environment: 'dev', vessel: 'lobby-3', follow: true, lines: 100, container: 'sidecar' },
  ],
  [
    'logs dev lobby-3 --container sidecar --lines=1000 --follow',
    { kind: 'logs', environment: 'dev', vessel: 'lobby-3', follow: true, lines: 1000, container: 'sidecar' },
  ],
  [
    'logs --follow dev --lines 1 lobby-3',
    { kind: 'logs', environment: 'dev', vessel: 'lobby-3', follow: true, lines: 1 },
  ],
  ['release start Season 4 launch', { kind: 'release.start', title: 'Season 4 launch' }],
  ['release start "Season 4 launch"', { kind: 'release.start', title: 'Season 4 launch' }],
  ['release start  Bob’s   "big" day — final', { kind: 'release.start', title: 'Bob’s "big" day — final' }],
  ['release start Season "4', { kind: 'release.start', title: 'Season "4' }],
  ['release end Season 4 launch', { kind: 'release.end', ref: 'Season 4 launch' }],
  ['release end rel-0042', { kind: 'release.end', ref: 'rel-0042' }],
];

describe('parseCommand: every form', () => {
  it.each(VALID)('%j', (text, expected) => {
    expect(command(text)).toEqual(expected);
  });
});

describe('parseCommand: what Slack does to typed text', () => {
  it('reads curly quotes around --args', () => {
    expect(command('formation add dev lobby l-3 eu --container gs --args “--mode ranked”')).toMatchObject({
      input: { overrides: [{ container: 'gs', args: ['--mode', 'ranked'] }] },
    });
    expect(command('release start ‘Season 4’')).toEqual({ kind: 'release.start', title: 'Season 4' });
  });

  it('reads em-dash flags, also inside --args', () => {
    expect(command('logs dev lobby-3 —follow —lines 20')).toEqual({
      kind: 'logs',
      environment: 'dev',
      vessel: 'lobby-3',
      follow: true,
      lines: 20,
    });
    expect(command('formation add dev lobby l-3 eu —container gs —args “—mode ranked”')).toMatchObject({
      input: { overrides: [{ container: 'gs', args: ['--mode', 'ranked'] }] },
    });
  });

  it('reads non-breaking spaces, links and escaped entities', () => {
    expect(command('vessels\u00a0dev')).toEqual({ kind: 'vessels', environment: 'dev' });
    expect(command('release start Ship <https://x.io/4|x.io/4> &amp; more')).toEqual({
      kind: 'release.start',
      title: 'Ship x.io/4 & more',
    });
  });

  // Environments are lowercase DNS labels, so `Dev` can only mean dev (issue 18 point 10).
  it('keeps argument case, except an environment, and ignores command and flag case', () => {
    expect(command('VESSEL Delete Dev Lobby-3')).toEqual({
      kind: 'change',
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'Lobby-3' },
    });
    expect(command('logs dev x --FOLLOW')).toMatchObject({ follow: true });
  });
});
