/**
 * `npm test`: the type check, the linter and jest, failing if any fails.
 *
 * The type check (about 15 s of one core) and the linter (about 3 s) run
 * beside jest rather than before it: jest's workers leave part of the machine
 * idle while tests wait on sockets, browsers and child processes, and these
 * fill it (docs/test-suite.md). Their output is held and printed after
 * jest's, so nothing interleaves. Arguments go to jest (`npm test -- <files>`).
 */
import { spawn } from 'node:child_process';

/** Runs an npm script; resolves with its exit code and, when held, its output. */
function run(script, args, { hold }) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const checks = ['typecheck', 'lint'].map((script) => ({ script, done: run(script, [], { hold: true }) }));
const jest = await run('jest', process.argv.slice(2), { hold: false });
let failed = jest.code !== 0;
for (const { script, done } of checks) {
  const { code, output } = await done;
  process.stdout.write(output);
  process.stdout.write(`${script}: ${code === 0 ? 'passed' : 'FAILED'}\n`);
  failed ||= code !== 0;
}
process.exit(failed ? 1 : 0);
