/**
 * The container image, checked without a Docker engine: the Dockerfile lints
 * clean with dockerfile-utils (every rule at warning or stricter, and no
 * diagnostic allowed), and its shape is the one docs/deploy.md describes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ValidationSeverity, type ValidatorSettings, validate } from 'dockerfile-utils';
import { SUPPORTED_NODE_MAJORS } from '../../src/startup/node-version.js';

const dockerfile = readFileSync('Dockerfile', 'utf8');
const dockerignore = readFileSync('.dockerignore', 'utf8');

/** Rules some editors leave off, all turned on: "lints clean" means against every rule. */
const STRICT: ValidatorSettings = {
  deprecatedMaintainer: ValidationSeverity.ERROR,
  directiveCasing: ValidationSeverity.ERROR,
  emptyContinuationLine: ValidationSeverity.ERROR,
  instructionCasing: ValidationSeverity.ERROR,
  instructionCmdMultiple: ValidationSeverity.ERROR,
  instructionEntrypointMultiple: ValidationSeverity.ERROR,
  instructionHealthcheckMultiple: ValidationSeverity.ERROR,
  instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
  instructionWorkdirRelative: ValidationSeverity.ERROR,
};

/** The instructions of the file: keyword and argument text, continuation lines joined, comments dropped. */
function instructions(text: string): { keyword: string; args: string }[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each build stage, by stage name. */
function stages(text: string): Map<string, { keyword: string; args: string }[]> {
  const result = new Map<string, { keyword: string; args: string }[]>();
  let current: { keyword: string; args: string }[] | undefined;
  for (const i of instructions(text)) {
    if (i.keyword === 'FROM') {
      const name = /\bAS\s+(\S+)$/i.exec(i.args)?.[1] ?? `stage${result.size}`;
      current = [];
      result.set(name, current);
    }
    current?.push(i);
  }
  return result;
}

describe('Dockerfile', () => {
  it('lints clean with dockerfile-utils: no error and no warning', () => {
    const diagnostics = validate(dockerfile, STRICT).map(
      (d) => `line ${d.range.start.line + 1}: ${d.message}`,
    );
    expect(diagnostics).toEqual([]);
  });

  it('catches a real mistake (the check is not vacuous)', () => {
    expect(validate('FROM node:24\ncmd ["node"]\nWORKDIR app\n', STRICT).length).toBeGreaterThanOrEqual(2);
  });

  it('builds on a supported Node LTS image the project pins', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-[a-z-]+$/m.exec(dockerfile);
    expect(image).not.toBeNull();
    const major = Number(image?.[1]);
    expect(SUPPORTED_NODE_MAJORS).toContain(major);
    expect(major % 2).toBe(0); // even lines are the LTS ones
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies.node?.split('.')[0]).toBe(String(major));
  });

  it('is multi-stage: dev dependencies to build, production dependencies and dist/ to run', () => {
    const s = stages(dockerfile);
    expect([...s.keys()]).toEqual(['build', 'runtime']);
    const build = s.get('build') ?? [];
    const runtime = s.get('runtime') ?? [];
    expect(
      build.some((i) => i.keyword === 'RUN' && /^npm ci\b/.test(i.args) && !i.args.includes('--omit')),
    ).toBe(true);
    expect(build.some((i) => i.keyword === 'RUN' && i.args.includes('npm run build'))).toBe(true);
    expect(runtime.some((i) => i.keyword === 'RUN' && i.args.includes('npm ci --omit=dev'))).toBe(true);
    const copies = runtime.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toContain('--from=build /app/dist ./dist');
    // No sources, tests or dev tooling reach the runtime stage.
    expect(copies.some((c) => /\bsrc\b|\btest\b|node_modules/.test(c))).toBe(false);
  });

  it('runs as a numeric non-root user, node as PID 1, without a rebuild at start', () => {
    const runtime = stages(dockerfile).get('runtime') ?? [];
    const user = runtime.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toMatch(/^[1-9]\d*(:\d+)?$/);
    const cmd = runtime.filter((i) => i.keyword === 'CMD');
    expect(cmd).toHaveLength(1);
    expect(JSON.parse(cmd[0]?.args ?? '[]')).toEqual(['node', '--max-semi-space-size=8', 'dist/main.js']);
    expect(runtime.some((i) => i.keyword === 'ENTRYPOINT')).toBe(false);
  });

  it('has a .dockerignore that keeps local builds, data and secrets out of the context', () => {
    const lines = dockerignore.split('\n').filter((l) => l && !l.startsWith('#'));
    // Everything is left out unless named: node_modules, dist, data, .git, .env never reach the daemon.
    expect(lines[0]).toBe('*');
    const kept = lines.filter((l) => l.startsWith('!')).map((l) => l.slice(1));
    // Whatever the Dockerfile copies from the context is kept, and nothing else.
    const copied = instructions(dockerfile)
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect([...new Set(copied)].sort()).toEqual([...kept].sort());
  });
});
