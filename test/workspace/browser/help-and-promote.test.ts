/**
 * Browser flows 1 and 2: `/harbor help` through the composer (with the
 * manifest's usage hint showing while typing), and a promotion into prod that
 * one SRE requests, cannot approve themselves, and a second SRE approves.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type BrowserHarness, message, SKIP_REASON, startBrowserHarness, type } from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

maybe('the local workspace in a browser', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowserHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('shows the usage hint while typing and the help as an ephemeral message', async () => {
    const page = await h.open('alice', 'dev');
    await page.locator('.composer-input').fill('/harbor ');
    const hint = page.locator('.composer-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('promote <image>:<tag> from <a> to <b>');
    await type(page, '/harbor help');
    const help = message(page, '/harbor commands');
    await help.waitFor();
    expect(await help.locator('.only-you').textContent()).toBe('Only visible to you');
    expect(await help.locator('.block.header').first().textContent()).toBe('/harbor commands');
    expect(await help.locator('code', { hasText: '/harbor vessels <env>' }).count()).toBe(1);
    await h.screenshot(page, '1-help');
    // Only the person who asked sees it.
    const other = await h.open('bob', 'dev');
    await other.locator('.channel-title').waitFor();
    expect(await other.locator('.message', { hasText: '/harbor commands' }).count()).toBe(0);
    await other.close();
    await page.close();
  });

  it('promotes into prod after a second SRE approves, refusing the requester', async () => {
    const bob = await h.open('bob', 'prod');
    await type(bob, '/harbor promote game-server:1.2.0 from dev to prod');
    const preview = message(bob, 'Waiting for approval');
    await preview.waitFor();
    expect(await preview.locator('.mention.group').first().textContent()).toBe('@sre');
    expect(await preview.textContent()).toContain('Requested by @bob');

    await preview.getByRole('button', { name: 'Approve' }).click();
    const refusal = message(bob, /approve/i).and(bob.locator('.ephemeral'));
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/someone else must approve it/);

    // The same tab switches to Carol with the "you are" switcher.
    await bob.locator('#you-are').selectOption('U0CAROL');
    await bob.locator('.viewer', { hasText: '@carol' }).waitFor();
    const carolsView = message(bob, 'Waiting for approval');
    await carolsView.getByRole('button', { name: 'Approve' }).click();
    const done = message(bob, /^H?harbormaster.*Done/);
    await done.waitFor();
    expect(await done.textContent()).toContain('@carol');
    // Done: the one button left is Roll back (the promotion rolled out through an ImageUpdater; issue 28).
    expect(await done.locator('button[data-action-id]').allTextContents()).toEqual(['Roll back']);
    expect(await done.locator('.edited').count()).toBe(1);
    await h.screenshot(bob, '2-promotion-approved');
    await bob.close();
  });
});
