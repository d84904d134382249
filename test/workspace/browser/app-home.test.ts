/**
 * The app's Home tab in the page (issue 19.10): opening it asks the bot (a
 * signed app_home_opened), which publishes what waits for the person; an
 * Approve there goes through, and the tab is redrawn.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type BrowserHarness, message, SKIP_REASON, startBrowserHarness, type } from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

maybe('the Home tab in the page', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowserHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('shows a change waiting for approval, approves it there, and redraws', async () => {
    const bob = await h.open('bob', 'prod');
    await type(bob, '/harbor promote game-server:1.2.0 from dev to prod');
    await message(bob, 'Waiting for approval').waitFor();

    const carol = await h.open('carol', 'prod');
    await carol.locator('.app-link').click();
    const home = carol.locator('.home-tab');
    await home.getByText('1 change waiting for your approval').waitFor();
    expect(await home.textContent()).toContain('No live tails of yours are running.');
    expect(await carol.locator('.composer').isHidden()).toBe(true);
    await h.screenshot(carol, '19-10-app-home');
    await home.getByRole('button', { name: /^Approve/ }).click();
    await home.getByText('Nothing needs your approval right now.').waitFor();

    // Back in the channel, the change went through.
    await carol.locator('.channel-link[data-channel="harbor-prod"]').click();
    await message(carol, /Done/).waitFor();
    await bob.close();
    await carol.close();
  });

  it('switching "You are" while the Home tab is open draws the new person’s tab (issue 30.7)', async () => {
    const page = await h.open('bob', 'prod');
    await page.locator('.app-link').click();
    await page.locator('.home-tab').waitFor();
    const carol = await page.locator('#you-are option', { hasText: 'Carol' }).getAttribute('value');
    await page.locator('#you-are').selectOption(carol ?? '');
    await page.locator('.home-tab').getByText('Your requests').waitFor({ timeout: 5_000 });
    expect(await page.locator('.home-empty').count()).toBe(0);
    await page.close();
  });

  it('a change’s link on the Home tab opens its message in the local workspace, not slack.com (issue 30.7)', async () => {
    const bob = await h.open('bob', 'prod');
    await type(bob, '/harbor promote game-server:1.1.0 from dev to prod');
    await message(bob, 'Waiting for approval').waitFor();
    const carol = await h.open('carol', 'dev');
    await carol.locator('.app-link').click();
    const link = carol.locator('.home-tab a.permalink').first();
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('#');
    await link.click();
    // The channel the change was asked in is open, with its message in view.
    await carol.locator('.channel-link.active[data-channel="harbor-prod"]').waitFor();
    await carol.locator('.message.highlight').waitFor();
    expect(await carol.locator('.message.highlight').textContent()).toContain('game-server:1.1.0');
    await bob.close();
    await carol.close();
  });

  it('an answer to a click on an older message, landing out of sight, shows "New messages below" (issue 30.7)', async () => {
    const bob = await h.open('bob', 'prod');
    await type(bob, '/harbor promote game-server:1.1.0 from dev to prod');
    const preview = message(bob, 'Waiting for approval');
    await preview.waitFor();
    // Enough after it that it scrolls out of view.
    for (let i = 0; i < 4; i++) {
      await type(bob, '/harbor help');
      await bob.locator('.messages > .message', { hasText: '/harbor commands' }).nth(i).waitFor();
    }
    // Scrolled up to read the preview (the first message), as a person would.
    await bob.locator('.messages').evaluate((el) => {
      el.scrollTop = 0;
    });
    expect(await bob.locator('.messages').evaluate((el) => el.scrollHeight > el.clientHeight + 200)).toBe(
      true,
    );
    await preview.getByRole('button', { name: /^Approve/ }).click();
    const pill = bob.locator('.new-below');
    await pill.waitFor({ state: 'visible' });
    await pill.click();
    const answer = bob.locator('.messages > .message', { hasText: 'You requested this change' }).last();
    await answer.waitFor();
    // The pill took the person to the answer: it is inside the channel pane's visible part. Both
    // boxes are read in one page turn (a redraw replaces the pane's elements between two reads).
    const pane = await bob.locator('.messages').elementHandle();
    const inView = await bob.waitForFunction((el) => {
      if (!el) return false;
      const answers = [...el.children].filter((m) => m.textContent?.includes('You requested this change'));
      const last = answers.at(-1);
      if (!last) return false;
      const p = el.getBoundingClientRect();
      const a = last.getBoundingClientRect();
      return a.top < p.bottom && a.bottom > p.top;
    }, pane);
    expect(await inView.jsonValue()).toBe(true);
    await bob.close();
  });
});
