/** The `npm run simulator` entry point, run as a real process. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, expect, it } from '@jest/globals';

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
});

function run(args: string[]): ChildProcessWithoutNullStreams {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts', ...args], {
    cwd: process.cwd(),
  });
  return child;
}

/** Resolves with the first `n` stdout lines. */
async function firstLines(proc: ChildProcessWithoutNullStreams, n: number): Promise<string[]> {
  let text = '';
  for await (const chunk of proc.stdout) {
    text += String(chunk);
    const lines = text.split('\n');
    if (lines.length > n) return lines.slice(0, n);
  }
  throw new Error(`stdout ended before ${n} lines: ${JSON.stringify(text)}`);
}

it('prints GAMEFABRIC_URL and GAMEFABRIC_TOKEN, serves the image list, and stops on SIGTERM', async () => {
  const proc = run(['--port', '0']);
  const [urlLine, tokenLine] = await firstLines(proc, 2);
  expect(urlLine).toMatch(/^GAMEFABRIC_URL=http:\/\/127\.0\.0\.1:\d+$/);
  expect(tokenLine).toBe('GAMEFABRIC_TOKEN=demo-token');
  const url = (urlLine as string).slice('GAMEFABRIC_URL='.length);

  const res = await fetch(`${url}/api/container/v1/images/scopes/dev`, {
    headers: { authorization: 'Bearer demo-token' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as { items: unknown[] };
  expect(body.items).toHaveLength(4);

  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const [code] = await exited;
  expect(code).toBe(0);
});

it('exits with status 2 and names the flag when an option is invalid', async () => {
  const proc = run(['--port', 'abc']);
  let stderr = '';
  proc.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const [code] = await once(proc, 'exit');
  expect(code).toBe(2);
  expect(stderr).toContain('--port: expected an integer from 0 to 65535, got "abc"');
});
