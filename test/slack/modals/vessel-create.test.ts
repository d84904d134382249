/** The create-vessel modal: regions and images loaded, defaults, ports and args parsed, errors placed. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { operationModule } from '../../../src/changes/operations/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { MODAL_CALLBACKS } from '../../../src/slack/ids.js';
import { viewProblems } from '../../../src/slack/limits.js';
import {
  VESSEL_BLOCKS as B,
  fieldErrors,
  loadedView,
  openingView,
  readSubmission,
} from '../../../src/slack/modals/index.js';
import { fill, initialOption, input, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const m = meta('vessel.create', { environment: 'dev' });

function textOf(view: Awaited<ReturnType<typeof loadedView>>, id: string): string | undefined {
  return (input(view, id).element as { initial_value?: string }).initial_value;
}

describe('create-vessel modal', () => {
  it('opens with the create-vessel title and no submit', () => {
    const view = openingView(m);
    expect(view.title.text).toBe('Create vessel');
    expect(view.callback_id).toBe(MODAL_CALLBACKS['vessel.create']);
    expect(view.submit).toBeUndefined();
  });

  it('loads the regions of the environment, the branches and the images of the first branch', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    expect(optionValues(view, B.region)).toEqual(['eu-central', 'us-west']);
    expect(JSON.stringify(input(view, B.region))).toContain('eu-central (EU Central)');
    expect(optionValues(view, B.branch)).toEqual(['dev', 'prod']);
    expect(input(view, B.branch).dispatch_action).toBe(true);
    expect(optionValues(view, B.image)[0]).toBe('game-server:1.2.0');
    expect(textOf(view, B.container)).toBe('game-server');
    expect(textOf(view, B.ports)).toBe('game:7777/UDP');
    expect(textOf(view, B.cpu)).toBe('250m');
    expect(textOf(view, B.memory)).toBe('512Mi');
    expect(viewProblems(view)).toEqual([]);
  });

  it('reloads for another branch and keeps what the user typed', async () => {
    const first = await loadedView(m, world.deps, silentLogger);
    const state = fill(first, { [B.name]: 'lobby-9', [B.branch]: 'prod', [B.ports]: 'game:7000/TCP' });
    const view = await loadedView(m, world.deps, silentLogger, state);
    expect(optionValues(view, B.image)).toEqual(['game-server:1.0.0']);
    expect(initialOption(view, B.branch)).toBe('prod');
    expect(textOf(view, B.name)).toBe('lobby-9');
    expect(textOf(view, B.ports)).toBe('game:7000/TCP');
  });

  it('reads a submission into the exact engine input, which the operation accepts', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [B.name]: 'lobby-9',
      [B.description]: 'EU overflow',
      [B.region]: 'eu-central',
      [B.image]: 'game-server:1.1.0',
      [B.ports]: 'game:7777/UDP, query:27015/tcp/Passthrough',
      [B.args]: `--max-players 16 --motd "Hello there" 'a b'`,
    });
    const input = {
      environment: 'dev',
      name: 'lobby-9',
      region: 'eu-central',
      description: 'EU overflow',
      containers: [
        {
          name: 'game-server',
          branch: 'dev',
          image: 'game-server:1.1.0',
          ports: [
            { name: 'game', containerPort: 7777, protocol: 'UDP', policy: 'Dynamic' },
            { name: 'query', containerPort: 27015, protocol: 'TCP', policy: 'Passthrough' },
          ],
          args: ['--max-players', '16', '--motd', 'Hello there', 'a b'],
          cpu: '250m',
          memory: '512Mi',
        },
      ],
    };
    expect(readSubmission(m, state)).toEqual({ ok: true, operation: 'vessel.create', input });
    expect(operationModule('vessel.create').parse(input)).toEqual(input);
  });

  it('leaves out empty optional fields', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [B.name]: 'lobby-9',
      [B.region]: 'eu-central',
      [B.image]: 'game-server:1.2.0',
      [B.ports]: null,
      [B.cpu]: null,
      [B.memory]: '  ',
    });
    const result = readSubmission(m, state);
    expect(result.ok && result.operation === 'vessel.create' && result.input.containers).toEqual([
      { name: 'game-server', branch: 'dev', image: 'game-server:1.2.0', ports: [] },
    ]);
  });

  it('names the blocks of missing and malformed fields', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, { [B.ports]: 'game:77777', [B.args]: '--motd "unclosed' });
    const result = readSubmission(m, state);
    expect(result.ok).toBe(false);
    const errors = result.ok ? {} : result.errors;
    expect(Object.keys(errors).sort()).toEqual([B.args, B.image, B.name, B.ports, B.region].sort());
    expect(errors[B.ports]).toContain('"game:77777" is not a port');
    expect(errors[B.args]).toContain('quote is not closed');
  });

  it('puts the engine’s checks on the container blocks (bad name, cpu, memory)', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [B.name]: 'Lobby_9',
      [B.region]: 'eu-central',
      [B.image]: 'game-server:1.2.0',
      [B.cpu]: '2 cores',
      [B.memory]: '1GB',
    });
    const result = readSubmission(m, state);
    expect(result.ok).toBe(false);
    const errors = result.ok ? {} : result.errors;
    expect(Object.keys(errors).sort()).toEqual([B.cpu, B.memory, B.name].sort());
    expect(errors[B.cpu]).toContain('millicores');
  });

  it('maps container field paths to their blocks and unknown fields to the name block', () => {
    expect(
      fieldErrors(m, [
        { field: 'containers[0].cpu', message: 'cpu!' },
        { field: 'containers[0].ports[1].containerPort', message: 'port!' },
        { field: 'containers[0].image', message: 'image!' },
        { field: 'containers', message: 'dup!' },
        { field: 'region', message: 'region!' },
        { field: 'environment', message: 'env!' },
        { field: 'containers[1].cpu', message: 'second!' },
      ]),
    ).toEqual({
      [B.cpu]: 'cpu!',
      [B.ports]: 'port!',
      [B.image]: 'image!',
      [B.container]: 'dup!',
      [B.region]: 'region!',
      [B.name]: 'environment: env!; containers[1].cpu: second!',
    });
  });

  it('opened without an environment asks for one first', async () => {
    const view = await loadedView(meta('vessel.create'), world.deps, silentLogger);
    expect(view.submit?.text).toBe('Next');
    expect(view.close?.text).toBe('Cancel');
    expect(JSON.stringify(view.blocks)).toContain('where.environment');
  });
});
