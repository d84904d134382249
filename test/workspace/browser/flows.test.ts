/**
 * Browser flows 3 to 6, each through the page as a person would: a
 * destructive formation remove behind its danger dialog (confirmed twice at
 * once, applied once), vessel create through its modal with a field error
 * beside the field, a live log tail refreshing in its thread until Stop, and
 * a release thread from start to end.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { type BrowserHarness, message, SKIP_REASON, startBrowserHarness, type } from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

/** The simulator's request log (what reached the hosting API). */
async function simRequests(h: BrowserHarness): Promise<{ method: string; path: string }[]> {
  const url = h.local.running.core.api.simulatorUrl;
  const res = await fetch(`${url}/_sim/requests`);
  const body = (await res.json()) as
    | { requests?: { method: string; path: string }[] }
    | { method: string; path: string }[];
  return Array.isArray(body) ? body : (body.requests ?? []);
}

/** The input block (label, control, hint, error) with this label in the open modal. */
function field(page: Page, label: string) {
  return page.locator('.modal .block.input', { has: page.locator('.input-label', { hasText: label }) });
}

maybe('local workspace flows in a browser', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowserHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('formation remove: the danger dialog guards Confirm, and two confirmations apply once', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, '/harbor formation remove dev lobby lobby-2');
    const preview = message(page, 'Confirm this destructive change');
    await preview.waitFor();
    const confirm = preview.getByRole('button', { name: 'Confirm' });
    expect(await confirm.getAttribute('class')).toContain('btn-danger');

    // Denying the dialog sends nothing.
    await confirm.click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.locator('.dialog-title').textContent()).toBe('Apply this destructive change?');
    await dialog.getByRole('button', { name: 'Back' }).click();
    expect(await dialog.count()).toBe(0);

    // The same person with the message open twice confirms in both at once.
    const second = await h.open('alice', 'dev');
    const before = (await simRequests(h)).filter((r) => r.method === 'PATCH').length;
    await confirm.click();
    await message(second, 'Confirm this destructive change').getByRole('button', { name: 'Confirm' }).click();
    await Promise.all([
      page.getByRole('alertdialog').getByRole('button', { name: 'Yes, apply it' }).click(),
      second.getByRole('alertdialog').getByRole('button', { name: 'Yes, apply it' }).click(),
    ]);
    const done = message(page, /Done/);
    await done.waitFor();
    expect(await done.textContent()).toContain('Removed vessel lobby-2');
    await h.local.running.bot.idle();
    const patches = (await simRequests(h)).filter((r) => r.method === 'PATCH').length - before;
    expect(patches).toBe(1);
    await h.screenshot(page, '3-formation-remove');
    await second.close();
    await page.close();
  });

  it('vessel create: the modal shows a bad name beside its field, then posts the preview', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, '/harbor vessel create dev');
    const modal = page.getByRole('dialog');
    await modal.waitFor();
    await field(page, 'Vessel name').locator('input').fill('Lobby_9!');
    await field(page, 'Region').locator('select').selectOption('eu-central');
    await field(page, 'Image').locator('select').selectOption({ index: 1 });
    await modal.getByRole('button', { name: 'Preview' }).click();
    const error = field(page, 'Vessel name').locator('.input-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      `"Lobby_9!" is not a valid vessel name: it may contain only lowercase letters, digits, '-' and '.'; e.g. lobby-3`,
    );
    await h.screenshot(page, '4-vessel-create-field-error');

    // What was typed elsewhere stays; fixing the name and submitting again posts the preview.
    await field(page, 'Vessel name').locator('input').fill('lobby-9');
    await modal.getByRole('button', { name: 'Preview' }).click();
    const preview = message(page, /lobby-9/);
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/Confirm this change/);
    // The form closed with the submission: the preview in the channel is the answer.
    await modal.waitFor({ state: 'detached' });
    await page.close();
  });

  it('logs --follow: the tail refreshes in its thread until Stop', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, '/harbor logs dev lobby-1 --follow');
    const parent = message(page, 'Tailing lobby-1');
    await parent.waitFor();
    await parent.locator('.reply-count').click();
    const tail = page.locator('.thread-panel .message').nth(1);
    await tail.waitFor();
    const first = await tail.textContent();
    // The bot edits the tail in place as lines arrive; the page redraws it without a reload.
    await page.waitForFunction(
      `document.querySelectorAll('.thread-panel .message')[1]?.textContent !== ${JSON.stringify(first)}`,
    );
    expect(await tail.locator('.edited').count()).toBe(1);
    await h.screenshot(page, '5-logs-follow-live');
    await tail.getByRole('button', { name: 'Stop' }).click();
    // The tail's final state (its counts follow); the thread's parent now says it stopped too.
    await page.locator('.thread-panel .message', { hasText: /stopped by @alice ·/ }).waitFor();
    expect(await page.locator('.thread-panel button[data-action-id]', { hasText: 'Stop' }).count()).toBe(0);
    await page.close();
  });

  it('a release thread from start to end', async () => {
    const alice = await h.open('alice', 'prod');
    await type(alice, '/harbor release start Season 4 launch');
    const started = message(alice, 'Release: Season 4 launch');
    await started.waitFor();
    // The message keeps its ts while the bot redraws it (and renames it once ended).
    const release = alice.locator(`.messages > .message[data-ts="${await started.getAttribute('data-ts')}"]`);

    await release.getByRole('button', { name: /Promote/ }).click();
    const modal = alice.getByRole('dialog');
    await modal.waitFor();
    await field(alice, 'Image').locator('select').selectOption('game-server:1.2.0');
    await field(alice, 'Target branch').locator('select').selectOption('prod');
    await modal.locator('button[type=submit]').click();
    // The form closes with the submission; the preview is in the thread.
    await modal.waitFor({ state: 'detached' });

    await release.locator('.reply-count').click();
    const panel = alice.locator('.thread-panel');
    await panel.locator('.message', { hasText: 'Waiting for approval' }).last().waitFor();

    // Bob, an SRE, approves in the thread.
    const bob = await h.open('bob', 'prod');
    await message(bob, 'Release: Season 4 launch').locator('.reply-count').click();
    await bob
      .locator('.thread-panel .message', { hasText: 'Waiting for approval' })
      .last()
      .getByRole('button', { name: 'Approve' })
      .click();
    await panel.locator('.message', { hasText: /Done/ }).last().waitFor();
    await release.getByText(/Steps done \(1\)/).waitFor();

    await type(alice, '/harbor release end Season 4 launch');
    await panel
      .locator('.message', { hasText: /Ended by @alice/ })
      .last()
      .waitFor();
    await release.getByText('Release ended: Season 4 launch').waitFor();
    // Ended: the one button left is Roll back release (its steps were applied; issue 28).
    expect(await release.locator('button[data-action-id]').allTextContents()).toEqual(['Roll back release']);
    expect(await alice.locator('.ephemeral', { hasText: 'the summary is in its thread' }).count()).toBe(1);
    await h.screenshot(alice, '6-release-thread');
    await bob.close();
    await alice.close();
  });
});
