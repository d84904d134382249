/**
 * Arrows point down (ARCHITECTURE.md, docs/architecture.md "Layers"): each
 * room of src/ has a place in one order, and a file imports only from its own
 * room or a room below it. Inside slack/ the same holds between its rooms
 * (issue 25: "no arrow runs back up between its rooms"). A new room must be
 * given its place here, which is the point: someone decides where it sits.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { type ImportGraph, importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The rooms of src/, top first. The simulator and the workspace stand aside, with start-up alone above them. */
const SRC_ROOMS = [
  'main.ts',
  'startup',
  'workspace',
  'simulator',
  'slack',
  'releases',
  'tails',
  'guards',
  'watches',
  'changes',
  'freezes',
  'slack-budget',
  'read-budget',
  'probes',
  'store',
  'config',
  'policy',
  'operations',
  'gamefabric',
  'api-shapes',
  'runtime',
  'errors',
  'format',
];

/**
 * The rooms of slack/, top first: the Bolt app and its receiver; the features
 * with listeners of their own (App Home, release threads, tails' buttons,
 * history's paging); the listeners of commands, clicks, submissions, options
 * and shortcuts; the handlers they run; the modals; the renderers; the
 * grammar; the ids every surface shares; the Slack gateway every Web API
 * call goes through; the runtime beneath all.
 */
const SLACK_ROOMS = [
  'bot.ts',
  'receiver.ts',
  'listeners',
  'home',
  'releases',
  'history',
  'alerts',
  'tails',
  'routes',
  'handlers',
  'change-messages',
  'modals',
  'render',
  'ids.ts',
  'grammar',
  'limits.ts',
  'gateway',
  'runtime',
];

/** The first path segment of `file` under `prefix`, or undefined when outside it. */
function roomOf(file: string, prefix: string): string | undefined {
  if (!file.startsWith(prefix)) return undefined;
  return file.slice(prefix.length).split('/')[0];
}

/** Every import that runs from a room to one above it in `order`; and rooms the order does not place. */
function upwardArrows(
  graph: ImportGraph,
  prefix: string,
  order: readonly string[],
): { up: string[]; unplaced: string[] } {
  const up: string[] = [];
  const unplaced = new Set<string>();
  for (const [from, tos] of graph) {
    const a = roomOf(from, prefix);
    if (a === undefined) continue;
    if (!order.includes(a)) unplaced.add(a);
    for (const to of tos) {
      const b = roomOf(to, prefix);
      if (b === undefined || b === a) continue;
      if (order.indexOf(b) < order.indexOf(a)) up.push(`${from} -> ${to}`);
    }
  }
  return { up: up.sort(), unplaced: [...unplaced].sort() };
}

describe('rooms and the order of their arrows', () => {
  const graph = importGraph(SRC);

  it('src/: every room placed, no import runs up', () => {
    const { up, unplaced } = upwardArrows(graph, '', SRC_ROOMS);
    expect(unplaced).toEqual([]);
    expect(up).toEqual([]);
  });

  it('slack/: every room placed, no import runs up between its rooms', () => {
    const { up, unplaced } = upwardArrows(graph, 'slack/', SLACK_ROOMS);
    expect(unplaced).toEqual([]);
    expect(up).toEqual([]);
  });

  it('sees an upward arrow when there is one (the check sees what it is meant to)', () => {
    const fake: ImportGraph = new Map([
      ['slack/render/a.ts', ['slack/handlers/b.ts', 'slack/render/c.ts']],
      ['slack/handlers/b.ts', ['slack/render/c.ts']],
      ['slack/new-room/d.ts', []],
    ]);
    expect(upwardArrows(fake, 'slack/', SLACK_ROOMS)).toEqual({
      up: ['slack/render/a.ts -> slack/handlers/b.ts'],
      unplaced: ['new-room'],
    });
  });
});
