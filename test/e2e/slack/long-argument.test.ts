/**
 * Issue 18, point 10 (in part): a very long argument is echoed as a short,
 * cleanly cut excerpt, so the useful part of the answer (which names exist)
 * is never lost behind it.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('a 5000-character argument', () => {
  it('is echoed short and cleanly, and the answer still says which names exist', async () => {
    h = await startBotHarness();
    await h.slash(`images ${'x'.repeat(5000)}`, ALICE);
    const answer = h.ephemeralTexts(ALICE).at(-1) ?? '';
    expect(answer.length).toBeLessThan(400);
    expect((answer.match(/`/g) ?? []).length % 2).toBe(0);
    expect(answer).toMatch(/dev/);
    expect(answer).toMatch(/prod/);
  });
});
