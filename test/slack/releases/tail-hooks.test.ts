/**
 * The tail service as the handlers see it: starting or stopping a tail of a
 * release redraws that release's message; tails outside releases redraw
 * nothing; everything else passes through.
 */
import { describe, expect, it } from '@jest/globals';
import { tailsRefreshingReleases } from '../../../src/slack/releases/tail-hooks.js';
import type { TailRecord } from '../../../src/store/types.js';
import type { TailService, TailStartInput } from '../../../src/tails/types.js';

function record(id: string, releaseId?: string): TailRecord {
  return {
    id,
    workspace: 'T1',
    channel: 'C1',
    env: 'dev',
    vessel: 'lobby-1',
    ...(releaseId ? { releaseId } : {}),
    startedBy: 'U1',
    startedAt: 0,
    status: 'active',
    state: {},
    version: 1,
  };
}

function setup() {
  const calls: string[] = [];
  const records = new Map<string, TailRecord>([
    ['t-rel', record('t-rel', 'rel-1')],
    ['t-plain', record('t-plain')],
  ]);
  const inner: TailService = {
    start: async (input: TailStartInput) => {
      calls.push(`start ${input.vessel}`);
      return record('t-new', input.releaseId);
    },
    stop: async (id) => {
      calls.push(`stop ${id}`);
      return 'stopped';
    },
    stopRelease: async (id) => {
      calls.push(`stopRelease ${id}`);
      return 3;
    },
    resumeOrphans: async () => {
      calls.push('resume');
    },
    close: async () => {
      calls.push('close');
    },
  };
  const tails = tailsRefreshingReleases(inner, { getTail: async (id) => records.get(id) }, async (id) => {
    calls.push(`refresh ${id}`);
  });
  return { tails, calls };
}

const input: TailStartInput = { workspace: 'T1', channel: 'C1', env: 'dev', vessel: 'lobby-1', user: 'U1' };

describe('tailsRefreshingReleases', () => {
  it('redraws the release after a tail of it starts or is stopped', async () => {
    const { tails, calls } = setup();
    await tails.start({ ...input, releaseId: 'rel-1' });
    expect(await tails.stop('t-rel', 'U2')).toBe('stopped');
    expect(calls).toEqual(['start lobby-1', 'refresh rel-1', 'stop t-rel', 'refresh rel-1']);
  });

  it('redraws nothing for tails outside releases, and passes the rest through', async () => {
    const { tails, calls } = setup();
    await tails.start(input);
    await tails.stop('t-plain', 'U2');
    expect(await tails.stopRelease('rel-1')).toBe(3);
    await tails.resumeOrphans();
    await tails.close();
    expect(calls).toEqual(['start lobby-1', 'stop t-plain', 'stopRelease rel-1', 'resume', 'close']);
  });
});
