import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { loadPolicy, PolicyError } from '../../src/policy/index.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { fakeDirectory } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'harbor-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadPolicy', () => {
  it('reads a file, names it as the source and logs a summary', async () => {
    const path = join(dir, 'ok.yml');
    writeFileSync(
      path,
      'defaults: { expires: 2h }\nrules:\n  - operations: "*"\n    approval: { required: 1, approvers: { users: ["*"] } }\n    expires: 1d\n  - operations: "*"\n',
    );
    const logger = createMemoryLogger();
    const policy = await loadPolicy(path, { ...fakeDirectory().ctx, logger });
    expect(policy.source).toBe(path);
    expect(policy.summary).toBe('2 rules, 1 needing approval, requests expire after 1d/2h');
    expect(logger.lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'info', msg: 'loaded policy', source: path, summary: policy.summary }),
    ]);
  });

  it('reports a missing file as a PolicyError naming the path', async () => {
    const path = join(dir, 'missing.yml');
    const error = await loadPolicy(path, fakeDirectory().ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as PolicyError).source).toBe(path);
    expect((error as PolicyError).problems).toEqual(['can not read the policy file: no such file']);
  });

  it('reports problems in the file with the file as source', async () => {
    const path = join(dir, 'bad.yml');
    writeFileSync(path, 'rules:\n  - operations: [vessel.delete]\n    expires: 1w\n');
    await expect(loadPolicy(path, fakeDirectory().ctx)).rejects.toThrow(
      `invalid policy (${path}):\n  - rules[0].expires: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "1w"`,
    );
  });

  it('warns when channels are listed by name but no channel-name resolver is given', async () => {
    const path = join(dir, 'names.yml');
    writeFileSync(path, 'rules:\n  - operations: "*"\n    channels: ["#deploys"]\n');
    const logger = createMemoryLogger();
    await loadPolicy(path, { resolveGroup: async () => [], logger });
    expect(logger.lines.map((l) => JSON.parse(l).msg)).toContain(
      'policy lists channels by name but no channel-name resolver was given',
    );
  });
});
