/**
 * The message shortcut in the page (issue 19.3 and 10): a message's "More
 * actions" menu offers the app's shortcut; on an alert naming a vessel it
 * opens the tail form with that vessel chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type BrowserHarness, message, SKIP_REASON, startBrowserHarness, type } from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

maybe('message shortcuts in the page', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowserHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('opens the tail form filled in for the vessel a message names', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, 'ALERT lobby-2 restarted 5 times');
    const alert = message(page, 'ALERT lobby-2');
    await alert.waitFor();
    await alert.getByRole('button', { name: 'More actions' }).click();
    await alert.getByRole('menuitem', { name: 'Harbormaster: show / tail logs' }).click();
    const modal = page.locator('.modal[aria-label="Tail logs"]');
    const vessel = modal.locator('select[data-block-id="vessel"]');
    await vessel.waitFor();
    expect(await vessel.inputValue()).toBe('lobby-2');
    await h.screenshot(page, '19-3-message-shortcut');
    await page.close();
  });
});
