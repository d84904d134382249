import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { nodeVersionProblem, SUPPORTED_NODE_MAJORS } from '../../src/startup/node-version.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

describe('supported Node.js lines', () => {
  it('the suite itself runs on a supported LTS line (CI runs the Node the project pins, not the system one)', () => {
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('engines in package.json names exactly the supported lines', () => {
    expect(pkg.engines.node).toBe('^22.12 || ^24 || ^26');
    const majors = [...pkg.engines.node.matchAll(/\^(\d+)/g)].map((m) => Number(m[1]));
    expect(majors).toEqual([...SUPPORTED_NODE_MAJORS]);
  });

  it('the Node the npm scripts run is one of them', () => {
    const pinned = pkg.devDependencies.node ?? '';
    expect(nodeVersionProblem(pinned)).toBeUndefined();
    expect(process.versions.node).toBe(pinned);
  });

  it.each(['20.20.2', '18.20.0', '22.11.0', '23.1.0', '25.0.0', '27.0.0'])('refuses Node %s by name', (v) => {
    expect(nodeVersionProblem(v)).toBe(
      `Harbormaster needs Node.js 22.12+, 24 or 26 (a maintained LTS line); this is Node ${v}. ` +
        'Run it through npm (`npm start`), which uses the Node the project installs, or install a supported Node.',
    );
  });

  it.each(['22.12.0', '22.23.3', '24.21.0', '26.10.0'])('accepts Node %s', (v) => {
    expect(nodeVersionProblem(v)).toBeUndefined();
  });
});
