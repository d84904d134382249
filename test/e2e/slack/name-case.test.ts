/**
 * Issue 18, point 10 (in part): environment names behave alike whatever their
 * case: `vessels Dev` lists dev's vessels as `IMAGES DEV` lists dev's images.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('names typed in another case', () => {
  it('`vessels Dev` lists the vessels of dev', async () => {
    h = await startBotHarness();
    await h.slash('vessels dev', ALICE);
    const lower = h.ephemeralTexts(ALICE).at(-1);
    await h.slash('vessels Dev', ALICE);
    expect(h.ephemeralTexts(ALICE).at(-1)).toBe(lower);
    await h.slash('IMAGES DEV', ALICE);
    expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/in branch \*dev\*/);
  });
});

describe('environment names of any length', () => {
  it.each(['stag', 'staging'])('`vessels %s` says which environments exist', async (env) => {
    h = await startBotHarness();
    await h.slash(`vessels ${env}`, ALICE);
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(`No environment \`${env}\`.`);
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('Known environments: `dev`, `prod`.');
  });
});
