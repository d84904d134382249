/**
 * `npm test`: the type check, the linter and jest, failing if any fails.
 *
 * The type check (about 15 s of one core) runs beside lint and jest rather
 * than before them: jest's workers leave part of the machine idle while
 * tests wait on sockets, browsers and child processes, and the type check
 * fills it (docs/test-suite.md). Its output is held and printed after jest's,
 * so the two never interleave. Arguments go to jest (`npm test -- <files>`).
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

const typecheck = run('typecheck', [], { hold: true });
const lint = await run('lint', [], { hold: false });
const jest = lint.code === 0 ? await run('jest', process.argv.slice(2), { hold: false }) : { code: 1 };
const types = await typecheck;
process.stdout.write(types.output);
process.stdout.write(`typecheck: ${types.code === 0 ? 'passed' : 'FAILED'}\n`);
process.exit(types.code !== 0 || lint.code !== 0 || jest.code !== 0 ? 1 : 0);
