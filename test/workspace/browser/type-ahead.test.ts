/**
 * Type-ahead in the page (issue 19.2): with 154 images in dev, the promote
 * form's image picker is an external select; typing asks the bot (a signed
 * block_suggestion through the workspace), the offered images drop down
 * newest first, and the pick goes into the preview.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeImage } from '../../../src/simulator/images.js';
import { demoData, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type BrowserHarness, message, SKIP_REASON, startBrowserHarness, type } from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

maybe('type-ahead selects in the page', () => {
  let sim: Simulator;
  let h: BrowserHarness;
  beforeAll(async () => {
    const data = demoData();
    const dev = data.branches.dev ?? [];
    for (let i = 0; i < 150; i++) dev.push(makeImage('dev', 'game-server', `3.${i}.0`));
    sim = await startSimulator({ port: 0, stepMs: 5, data });
    h = await startBrowserHarness({ GAMEFABRIC_URL: sim.url, GAMEFABRIC_TOKEN: sim.token });
  });
  afterAll(async () => {
    await h?.stop();
    await sim?.stop();
  });

  it('lists what the bot offers for the typed text, newest first, and submits the pick', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, '/harbor promote');
    const modal = page.locator('.modal');
    const search = modal.locator('input.external-select[data-block-id="image"]');
    await search.waitFor();
    await search.fill('3.14');
    const offered = modal.locator('.suggestion[data-value]');
    await offered.first().waitFor();
    expect(await offered.first().textContent()).toBe('game-server:3.149.0');
    expect(await offered.allTextContents()).toContain('game-server:3.14.0');
    await h.screenshot(page, '19-2-type-ahead');
    await offered.filter({ hasText: 'game-server:3.148.0' }).click();
    expect(await search.inputValue()).toBe('game-server:3.148.0');
    await modal.locator('select[data-block-id="targetBranch"]').selectOption('prod');
    await modal.getByRole('button', { name: 'Preview' }).click();
    // The form closes with the submission; the preview in the channel is the answer.
    await modal.waitFor({ state: 'detached' });
    const preview = message(page, 'game-server:3.148.0');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('prod');
    await page.close();
  });
});
