/**
 * The benchmark's processes talk over Node's IPC channel: the parent calls
 * named operations in a child and awaits their answers. Each part of the
 * benchmark (bot, bare Bolt app, stand-ins) then has its own event loop, as
 * in production, and nothing a part does slows another's acks.
 */
import { type ChildProcess, execFileSync, fork, type StdioOptions, spawn } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

interface Call {
  id: number;
  op: string;
  arg: unknown;
}
type Answer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** In a child: answers the parent's calls with `handlers`. */
export function serve(handlers: Record<string, (arg: never) => unknown>): void {
  // Exits normally on the parent's SIGTERM, so `--cpu-prof` (BENCH_PROF) gets to write its profile.
  process.once('SIGTERM', () => process.exit(0));
  process.on('message', (message: Call) => {
    void (async () => {
      let answer: Answer;
      try {
        const handler = handlers[message.op];
        if (!handler) throw new Error(`no operation ${message.op}`);
        answer = { id: message.id, ok: true, result: await handler(message.arg as never) };
      } catch (error) {
        answer = {
          id: message.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
      }
      process.send?.(answer);
    })();
  });
}

/** A child process of the benchmark. */
export interface Child {
  call<T>(op: string, arg?: unknown): Promise<T>;
  /** Ends the process (SIGTERM) and waits for it. */
  end(): Promise<void>;
}

/** Where a profiled child (BENCH_PROF) writes its V8 CPU profile. */
export const PROFILE_DIR = join(tmpdir(), 'harbor-bench-profiles');

interface ForkOptions {
  /** CPUs the child may run on (`taskset -c` syntax, e.g. "1"); all when not given. */
  cpus?: string;
}

/**
 * Forks `script` (TypeScript, through tsx) as a child that `serve`s. With
 * BENCH_PROF set to part of its file name, the child writes a V8 CPU profile
 * to PROFILE_DIR when it ends (to see where a burst's time goes).
 */
export function forkChild(script: string, options: ForkOptions = {}): Child {
  const profile = process.env.BENCH_PROF && script.includes(process.env.BENCH_PROF);
  const nodeArgs = [
    '--import',
    'tsx',
    '--no-warnings',
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
  ];
  const stdio: StdioOptions = ['ignore', 'inherit', 'inherit', 'ipc'];
  // taskset execs Node in place, keeping the IPC channel's descriptor and environment.
  const child: ChildProcess = options.cpus
    ? spawn('taskset', ['-c', options.cpus, process.execPath, ...nodeArgs, script], { stdio })
    : fork(script, [], { execArgv: nodeArgs, stdio });
  let next = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (answer: Answer) => {
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (!w) return;
    if (answer.ok) w.resolve(answer.result);
    else w.reject(new Error(`${script}: ${answer.error}`));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const w of waiting.values()) w.reject(new Error(`${script} exited`));
    waiting.clear();
  });
  return {
    call: <T>(op: string, arg?: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, op, arg } satisfies Call);
      }),
    end: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Splits the machine's CPUs for a benchmark: this process (the client) and
 * the stand-ins on CPU 0, the apps under test on CPU 1, so the apps, measured
 * one after the other, each get a CPU to themselves, and where the scheduler
 * happens to place a process cannot favour one app over the other. Returns
 * the CPU list for the apps, or undefined (no pinning) on one CPU or without
 * taskset.
 */
export function pinClientAndStandIns(): { apps: string; others: string } | undefined {
  if (availableParallelism() < 2) return undefined;
  try {
    execFileSync('taskset', ['-a', '-pc', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return { apps: '1', others: '0' };
}
