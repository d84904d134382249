/**
 * The local workspace shows a freeze and a scheduled change (issue 41): a
 * freeze put from the page, a change scheduled with `--at` and confirmed
 * there (Scheduled, with Cancel), and the Home tab listing both, whose
 * Cancel stops the change.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type BrowserHarness, message, SKIP_REASON, startBrowserHarness, type } from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

maybe('a freeze and a scheduled change in the page', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowserHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('freezes prod, schedules a dev change, shows both on the Home tab, and cancels it there', async () => {
    const bob = await h.open('bob', 'dev');
    await type(bob, '/harbor freeze prod for 2h tournament final');
    await bob.getByText('froze').first().waitFor();

    await type(bob, '/harbor formation remove dev lobby lobby-2 --at in 3h');
    const preview = message(bob, 'Scheduled:');
    await preview.waitFor();
    await preview.getByRole('button', { name: /^Confirm/ }).click();
    // A destructive change asks again in its danger dialog.
    await bob.getByRole('alertdialog').getByRole('button', { name: 'Yes, apply it' }).click();
    const scheduled = bob.locator('.messages > .message', {
      hasText: 'the requester or an approver can cancel it',
    });
    await scheduled.waitFor();
    expect(await scheduled.textContent()).toContain('Applies');

    await bob.locator('.app-link').click();
    const home = bob.locator('.home-tab');
    await home.getByText('Freezes in force').waitFor();
    expect(await home.textContent()).toContain('tournament final');
    await home.getByText('confirmed, waits for its time').waitFor();
    await h.screenshot(bob, '41-freeze-and-scheduled-home');
    await home.getByRole('button', { name: /^Cancel/ }).click();
    await home.getByText('No scheduled changes are waiting.').waitFor();

    await bob.locator('.channel-link[data-channel="harbor-dev"]').click();
    await message(bob, /Cancelled/).waitFor();
    await bob.close();
  });
});
