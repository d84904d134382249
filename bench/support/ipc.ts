/**
 * The benchmark's processes talk over Node's IPC channel: the parent calls
 * named operations in a child and awaits their answers. Each part of the
 * benchmark (bot, bare Bolt app, stand-ins) then has its own event loop, as
 * in production, and nothing a part does slows another's acks.
 */
import { type ChildProcess, fork } from 'node:child_process';

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

/** Forks `script` (TypeScript, through tsx) as a child that `serve`s. */
export function forkChild(script: string): Child {
  const child: ChildProcess = fork(script, [], {
    execArgv: [
      '--import',
      'tsx',
      '--no-warnings',
      ...(process.env.BENCH_PROF && script.includes(process.env.BENCH_PROF)
        ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof']
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
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
