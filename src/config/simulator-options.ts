/**
 * Command-line options of `npm run simulator`, read from argv and the
 * environment (PORT) once, validated, with every problem named by its flag.
 */

interface SimulatorCliOptions {
  /** 0 = a free port. */
  port: number;
  /** Generated log lines per second per follow stream (`--rate`). */
  logLinesPerSecond?: number;
  /** Simulated time per Vessel lifecycle step (`--step-ms`). */
  stepMs?: number;
  /** A SimulatorData JSON file (`--data`). */
  dataFile?: string;
  /** `--real-shapes`: serve the looser shapes the real API returns (see docs/gamefabric-compatibility.md). */
  realShapes: boolean;
  /** `--fleet-counts` / `--no-fleet-counts`: Armada status with or without replica counts (default: the simulator's). */
  fleetCounts?: boolean;
  /** `--server-states`: serve ArmadaGameServerStates (game servers per Armada by state; shape inferred). */
  serverStates: boolean;
  /** `--log-replay`: log requests ignore `tailLines` and replay the whole log, as the real API may. */
  logReplay: boolean;
  /** `--ignore-override-images`: Formation override entries lose their `image`, as the provider's type has none. */
  ignoreOverrideImages: boolean;
  /** `--help` was given: print usage and exit. */
  help: boolean;
}

export const SIMULATOR_USAGE = `Usage: npm run simulator -- [options]

Options:
  --port N       port to listen on (0 = a free port; default: PORT or 0)
  --rate N       generated log lines per second per follow stream (default 5)
  --step-ms N    simulated milliseconds per Vessel lifecycle step (default 1000)
  --data FILE    start from a SimulatorData JSON file instead of the demo data
  --real-shapes  serve the looser shapes the real API returns (ports without
                 containerPort, branches with display names, duplicate images,
                 a refused Vessel apiVersion, a redirecting token endpoint,
                 Formation overrides applied by position, Armada status
                 without replica counts)
  --fleet-counts / --no-fleet-counts
                 Armada status with / without replica counts (default:
                 with, without under --real-shapes; no public source
                 names them)
  --server-states
                 serve armadagameserverstates (game servers per Armada by
                 state; the docs name the resource, its shape is inferred;
                 default: not served, 404)
  --log-replay   ignore tailLines on vessel logs and replay the whole log
  --ignore-override-images
                 drop the image of Formation override entries (the
                 provider's override type has none)
  --help         show this help

Environment:
  PORT           port to listen on, when --port is not given
`;

/** Thrown when options are invalid; the message lists every problem, one per line. */
export class SimulatorOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid simulator options:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'SimulatorOptionsError';
  }
}

const FLAGS = new Set(['--port', '--rate', '--step-ms', '--data']);
const SWITCHES = new Set([
  '--real-shapes',
  '--log-replay',
  '--ignore-override-images',
  '--fleet-counts',
  '--no-fleet-counts',
  '--server-states',
]);

function integer(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

/**
 * Parses the arguments after the script name (process.argv.slice(2)) and the
 * environment; `--flag value` and `--flag=value` both work.
 */
export function readSimulatorOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): SimulatorCliOptions {
  const problems: string[] = [];
  const values = new Map<string, string>();
  let help = false;
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (SWITCHES.has(arg)) {
      switches.add(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!FLAGS.has(flag)) {
      problems.push(`${flag}: unknown option (see --help)`);
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i++;
      }
    }
    if (value === undefined || value === '') problems.push(`${flag}: expects a value`);
    else values.set(flag, value);
  }

  const options: SimulatorCliOptions = {
    port: 0,
    help,
    realShapes: switches.has('--real-shapes'),
    ...(switches.has('--fleet-counts') ? { fleetCounts: true } : {}),
    ...(switches.has('--no-fleet-counts') ? { fleetCounts: false } : {}),
    serverStates: switches.has('--server-states'),
    logReplay: switches.has('--log-replay'),
    ignoreOverrideImages: switches.has('--ignore-override-images'),
  };
  const portText = values.get('--port') ?? env.PORT;
  const portSource = values.has('--port') ? '--port' : 'PORT';
  if (portText !== undefined && portText !== '') {
    const port = integer(portText, 0, 65535);
    if (port === undefined)
      problems.push(`${portSource}: expected an integer from 0 to 65535, got "${portText}"`);
    else options.port = port;
  }
  const rate = values.get('--rate');
  if (rate !== undefined) {
    const n = Number(rate);
    if (rate.trim() === '' || !Number.isFinite(n) || n < 0) {
      problems.push(`--rate: expected a number of lines per second >= 0, got "${rate}"`);
    } else options.logLinesPerSecond = n;
  }
  const step = values.get('--step-ms');
  if (step !== undefined) {
    const n = integer(step, 1, 86_400_000);
    if (n === undefined)
      problems.push(`--step-ms: expected an integer number of milliseconds >= 1, got "${step}"`);
    else options.stepMs = n;
  }
  const data = values.get('--data');
  if (data !== undefined) options.dataFile = data;

  if (problems.length > 0) throw new SimulatorOptionsError(problems);
  return options;
}
