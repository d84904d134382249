import { describe, expect, it } from '@jest/globals';
import { readSimulatorOptions, SimulatorOptionsError } from '../../src/config/simulator-options.js';

describe('readSimulatorOptions', () => {
  it('defaults to a free port', () => {
    expect(readSimulatorOptions([], {})).toEqual({
      port: 0,
      help: false,
      realShapes: false,
      serverStates: false,
      logReplay: false,
      ignoreOverrideImages: false,
    });
  });

  it('serves armadagameserverstates only under --server-states', () => {
    expect(readSimulatorOptions(['--server-states', '--no-fleet-counts'], {})).toMatchObject({
      serverStates: true,
      fleetCounts: false,
    });
  });

  it('reads the --real-shapes, --log-replay and --ignore-override-images switches', () => {
    expect(
      readSimulatorOptions(['--real-shapes', '--log-replay', '--ignore-override-images', '--port', '1'], {}),
    ).toMatchObject({
      port: 1,
      realShapes: true,
      logReplay: true,
      ignoreOverrideImages: true,
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(
      readSimulatorOptions(['--port', '8080', '--rate=1000000', '--step-ms', '250', '--data=world.json'], {}),
    ).toEqual({
      port: 8080,
      logLinesPerSecond: 1_000_000,
      stepMs: 250,
      realShapes: false,
      serverStates: false,
      logReplay: false,
      ignoreOverrideImages: false,
      dataFile: 'world.json',
      help: false,
    });
  });

  it('takes PORT from the environment unless --port is given', () => {
    expect(readSimulatorOptions([], { PORT: '9000' }).port).toBe(9000);
    expect(readSimulatorOptions(['--port', '0'], { PORT: '9000' }).port).toBe(0);
  });

  it('reports every problem, each naming its flag', () => {
    let error: unknown;
    try {
      readSimulatorOptions(['--port', 'abc', '--rate', '-5', '--step-ms', '0', '--data', '--verbose'], {});
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SimulatorOptionsError);
    expect((error as SimulatorOptionsError).problems).toEqual([
      '--data: expects a value',
      '--verbose: unknown option (see --help)',
      '--port: expected an integer from 0 to 65535, got "abc"',
      '--rate: expected a number of lines per second >= 0, got "-5"',
      '--step-ms: expected an integer number of milliseconds >= 1, got "0"',
    ]);
  });

  it('names PORT when the environment value is bad', () => {
    expect(() => readSimulatorOptions([], { PORT: '70000' })).toThrow(
      'PORT: expected an integer from 0 to 65535, got "70000"',
    );
  });

  it('recognises --help', () => {
    expect(readSimulatorOptions(['--help'], {}).help).toBe(true);
  });
});
