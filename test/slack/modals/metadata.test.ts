/** private_metadata: what we write reads back; anything else is not ours. */
import { describe, expect, it } from '@jest/globals';
import type { ModalMetadata } from '../../../src/slack/ids.js';
import { openingView, readMetadata } from '../../../src/slack/modals/index.js';

describe('readMetadata', () => {
  it('reads back what a view carries, optional fields included', () => {
    const meta: ModalMetadata = {
      kind: 'formation.add',
      channel: 'C1',
      channelName: 'releases',
      threadTs: '1700000000.000100',
      releaseId: 'rel-1',
      environment: 'dev',
      formation: 'lobby',
    };
    expect(readMetadata(openingView(meta).private_metadata ?? '')).toEqual(meta);
    expect(readMetadata(JSON.stringify({ kind: 'promote', channel: 'C1' }))).toEqual({
      kind: 'promote',
      channel: 'C1',
    });
  });

  it.each([
    '',
    'not json',
    'null',
    '[]',
    JSON.stringify({ kind: 'vessel.restart', channel: 'C1' }),
    JSON.stringify({ kind: 'promote' }),
    JSON.stringify({ kind: 'promote', channel: '' }),
    JSON.stringify({ kind: 'promote', channel: 'C1', environment: 7 }),
  ])('is undefined for %j', (text) => {
    expect(readMetadata(text)).toBeUndefined();
  });

  it('drops keys it does not know', () => {
    expect(readMetadata(JSON.stringify({ kind: 'promote', channel: 'C1', extra: 'x' }))).toEqual({
      kind: 'promote',
      channel: 'C1',
    });
  });
});
