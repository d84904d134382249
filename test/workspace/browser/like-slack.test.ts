/**
 * Where the local workspace page behaves as Slack does (issue 19, points 6-9):
 * threads follow their newest reply, sending brings the answer into view,
 * mentions and emoji draw inline, no empty box sits above the composer, Esc
 * and a close control close a modal (the app told when it asked), each tab
 * keeps its own "You are", and a reload closes an open modal.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  type BrowserHarness,
  CHANNELS,
  message,
  PEOPLE,
  SKIP_REASON,
  startBrowserHarness,
  type,
} from './harness.js';

const maybe = SKIP_REASON ? describe.skip : describe;
if (SKIP_REASON) it.skip(`browser flows skipped: ${SKIP_REASON}`, () => {});

/** Calls the workspace's Web API as the bot does. */
async function webApi(h: BrowserHarness, method: string, args: Record<string, unknown>) {
  const res = await fetch(`${h.local.workspace.apiUrl}${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${h.local.workspace.botToken}`,
    },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as { ok: boolean; error?: string; ts?: string; view?: { id: string } };
  if (!body.ok) throw new Error(`${method}: ${body.error}`);
  return body;
}

/** Resolves once `check` holds, checking after every change the workspace makes. */
function until(h: BrowserHarness, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const off = h.local.workspace.standIn.onChange(() => {
      if (!check()) return;
      off();
      resolve();
    });
  });
}

/** The page's state version after its next redraw. */
async function nextRedraw(page: Page): Promise<void> {
  const version = await page.evaluate('document.body.dataset.version');
  await page.waitForFunction(`document.body.dataset.version !== ${JSON.stringify(version)}`);
}

/** Three answers to `/harbor help`, each waited for: the channel is then taller than its pane. */
async function threeHelpAnswers(page: Page): Promise<void> {
  for (let i = 1; i <= 3; i++) {
    await type(page, '/harbor help');
    await page
      .locator('.messages > .message', { hasText: '/harbor commands' })
      .nth(i - 1)
      .waitFor();
  }
}

/** A change in another channel, and the page's redraw for it. */
async function redrawFromElsewhere(h: BrowserHarness, page: Page): Promise<void> {
  const redrawn = nextRedraw(page);
  await webApi(h, 'chat.postMessage', { channel: CHANNELS.prod, text: 'Elsewhere' });
  await redrawn;
}

/** Scrolls a pane as a person would, resolving once the page has seen the scroll. */
function scrollPane(page: Page, selector: string, to: 'top' | 'up-a-little'): Promise<unknown> {
  return page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector(${JSON.stringify(selector)});
    el.addEventListener('scroll', () => resolve(), { once: true });
    el.scrollTop = ${to === 'top' ? '0' : 'el.scrollHeight - el.clientHeight - 150'};
  })`);
}

/**
 * Whether the `nth` element matching `inner` shows its top edge inside `outer`'s visible box.
 * Found and measured in one evaluation in the page: the page redraws (replacing elements) and
 * scrolls as the workspace changes, a live tail all the time, so an element found in one round
 * trip may be gone by the next, and boxes read in two could straddle a redraw.
 */
function topShows(page: Page, inner: string, outer: string, nth = 0): Promise<boolean> {
  return page.evaluate(`(() => {
    const el = document.querySelectorAll(${JSON.stringify(inner)})[${nth}];
    const box = document.querySelector(${JSON.stringify(outer)});
    if (!el || !box) return false;
    const a = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return a.height > 0 && a.top >= b.top && a.top < b.bottom;
  })()`);
}

/** A stand-in for the app's request URL that records what the workspace sends it. */
async function recordingApp(): Promise<{ server: Server; url: string; payloads: unknown[] }> {
  const payloads: unknown[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const payload = new URLSearchParams(body).get('payload');
      if (payload) payloads.push(JSON.parse(payload));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${port}/slack/events`, payloads };
}

/** A live tail's Stop button in the open thread. */
const STOP = '.thread-panel button[data-action-id="tail.stop"]';

maybe('the local workspace behaves as Slack does', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowserHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('6: an open thread with a live tail stays at its newest reply, Stop in reach, unless scrolled up', async () => {
    const page = await h.open('alice', 'dev');
    await page.setViewportSize({ width: 1280, height: 480 });
    await type(page, '/harbor logs dev lobby-1 --follow');
    const parent = message(page, 'Tailing lobby-1');
    await parent.waitFor();
    await parent.locator('.reply-count').click();
    const panel = page.locator('.thread-messages');
    const stop = page.locator(STOP);
    await stop.waitFor();
    // The tail grows until the thread is taller than its panel.
    await page.waitForFunction(
      `(() => { const el = document.querySelector('.thread-messages'); return el.scrollHeight > el.clientHeight + 100; })()`,
    );
    for (let update = 0; update < 3; update++) {
      await nextRedraw(page);
      expect(await panel.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
      expect(await topShows(page, STOP, '.thread-messages')).toBe(true);
    }
    await h.screenshot(page, '7-thread-follows-tail');

    // Scrolled up to read: updates leave the person where they are.
    await scrollPane(page, '.thread-messages', 'top');
    for (let update = 0; update < 2; update++) {
      await nextRedraw(page);
      expect(await panel.evaluate((el) => el.scrollTop)).toBe(0);
    }
    await stop.click();
    await page.locator('.thread-panel .message', { hasText: /stopped by @alice ·/ }).waitFor();
    await page.close();
  });

  it('7: sending with a thread open, scrolled up a little, brings the answer into view', async () => {
    const page = await h.open('bob', 'dev');
    await page.setViewportSize({ width: 1280, height: 480 });
    const root = await webApi(h, 'chat.postMessage', { channel: CHANNELS.dev, text: 'Deploy notes' });
    await webApi(h, 'chat.postMessage', { channel: CHANNELS.dev, thread_ts: root.ts, text: 'First note' });
    await threeHelpAnswers(page);
    await message(page, 'Deploy notes').locator('.reply-count').click();
    await page.locator('.thread-panel .message', { hasText: 'First note' }).waitFor();
    const list = page.locator('.messages');
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight + 300)).toBe(true);
    await scrollPane(page, '.messages', 'up-a-little');

    await type(page, '/harbor vessels dev');
    const answer = page.locator('.messages > .message.ephemeral').nth(3);
    await answer.waitFor();
    expect(await answer.textContent()).toContain('lobby-1');
    expect(await topShows(page, '.messages > .message.ephemeral', '.messages', 3)).toBe(true);
    // The workspace changing elsewhere redraws the page: the answer stays where it was read from,
    // and its node stays the same one (a button replaced mid-click would lose the click).
    await page.evaluate(`window.keptAnswer = document.querySelectorAll('.messages > .message.ephemeral')[3]`);
    await redrawFromElsewhere(h, page);
    expect(await topShows(page, '.messages > .message.ephemeral', '.messages', 3)).toBe(true);
    expect(await page.evaluate('window.keptAnswer.isConnected')).toBe(true);
    await h.screenshot(page, '8-sent-answer-in-view');
    await page.close();
  });

  it('8: a channel mention stays in its line, shortcodes draw as emoji, no empty box above the composer', async () => {
    const page = await h.open('carol', 'dev');
    expect(await page.locator('.composer-hint').isVisible()).toBe(false);
    await webApi(h, 'chat.postMessage', {
      channel: CHANNELS.dev,
      text: `Alert in <#${CHANNELS.prod}> for lobby-1 :no_entry: rollout halted :tada:`,
    });
    const alert = message(page, 'Alert in');
    await alert.waitFor();
    const text = alert.locator('.text.mrkdwn');
    const display = `getComputedStyle([...document.querySelectorAll('.messages > .message')].at(-1).querySelector('.mention')).display`;
    expect(await page.evaluate(display)).toBe('inline');
    // One line: the mention starts on the line the text starts on.
    // Found and read in one evaluation (see topShows), so a redraw cannot move one and not the other.
    const offset = await page.evaluate(`(() => {
      const text = [...document.querySelectorAll('.messages > .message .text.mrkdwn')].at(-1);
      const mention = text?.querySelector('.mention');
      if (!text || !mention?.getClientRects().length) return null;
      return mention.getBoundingClientRect().top - text.getBoundingClientRect().top;
    })()`);
    expect(typeof offset).toBe('number');
    expect(Math.abs(offset as number)).toBeLessThan(4);
    // Slack's emoji where the browser has a colour emoji font, else a text symbol that stands in for it.
    const colour = (await page.evaluate('document.body.dataset.emoji')) === 'colour';
    const noEntry = colour ? '\u26D4' : '\u2296';
    expect(await text.textContent()).toBe(
      `Alert in #harbor-prod for lobby-1 ${noEntry} rollout halted \u{1F389}`,
    );
    expect(await text.locator('.emoji').first().getAttribute('title')).toBe(':no_entry:');
    await h.screenshot(page, '9-mention-and-emoji');
    await page.close();
  });

  it('9: Esc and the close control close a modal; the app hears view_closed when it asked', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, '/harbor vessel create dev');
    const modal = page.getByRole('dialog');
    await modal.waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    expect(h.local.workspace.standIn.openViews(PEOPLE.alice)).toHaveLength(0);

    await type(page, '/harbor vessel create dev');
    await modal.waitFor();
    await h.screenshot(page, '10-modal-close-control');
    await modal.locator('.modal-title').getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(h.local.workspace.standIn.openViews(PEOPLE.alice)).toHaveLength(0);

    // A modal that asks to hear of its closing: the app gets a signed view_closed.
    const app = await recordingApp();
    const botUrl = `http://127.0.0.1:${h.local.running.port}/slack/events`;
    h.local.workspace.connect(app.url);
    try {
      const opened = await webApi(h, 'views.open', {
        trigger_id: h.local.workspace.standIn.triggerId(undefined, PEOPLE.alice),
        view: {
          type: 'modal',
          callback_id: 'notes',
          notify_on_close: true,
          title: { type: 'plain_text', text: 'Notes' },
          close: { type: 'plain_text', text: 'Done' },
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Read me' } }],
        },
      });
      await modal.waitFor();
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      await until(h, () => app.payloads.length > 0);
      expect(app.payloads[0]).toMatchObject({
        type: 'view_closed',
        is_cleared: false,
        user: { id: PEOPLE.alice },
        view: { id: opened.view?.id, callback_id: 'notes' },
      });
    } finally {
      h.local.workspace.connect(botUrl);
      await new Promise((resolve) => app.server.close(resolve));
    }
    await page.close();
  });

  it('9: Esc on a confirmation dialog denies it and leaves the channel as it was', async () => {
    const page = await h.open('alice', 'dev');
    await type(page, '/harbor formation remove dev lobby lobby-2');
    const preview = message(page, 'Confirm this destructive change');
    await preview.waitFor();
    await preview.getByRole('button', { name: 'Confirm' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await preview.getByRole('button', { name: 'Confirm' }).count()).toBe(1);
    await page.close();
  });

  it('9: each tab keeps its own "You are" across a reload', async () => {
    const first = await h.open('alice', 'dev');
    await first.locator('#you-are').selectOption(PEOPLE.bob);
    await first.locator('.viewer', { hasText: '@bob' }).waitFor();
    const second = await h.open('alice', 'dev');
    await second.locator('#you-are').selectOption(PEOPLE.carol);
    await second.locator('.viewer', { hasText: '@carol' }).waitFor();

    await first.reload();
    await first.locator('.channel-link.active').waitFor();
    expect(await first.locator('.viewer').textContent()).toBe('viewing as @bob');
    expect(await first.locator('#you-are').inputValue()).toBe(PEOPLE.bob);
    await second.reload();
    await second.locator('.channel-link.active').waitFor();
    expect(await second.locator('.viewer').textContent()).toBe('viewing as @carol');
    await second.close();
    await first.close();
  });

  it('9: a reload closes an open modal, submits nothing, and tells the app when it asked', async () => {
    const page = await h.open('dave', 'dev');
    const standIn = h.local.workspace.standIn;
    await type(page, '/harbor vessel create dev');
    const modal = page.getByRole('dialog');
    await modal.waitFor();
    await modal.locator('.block.input input').first().fill('half-typed');
    // The bot's other work (a tail, App Home) may call the Web API meanwhile; views calls are the modal's.
    const submissions = () => standIn.calls.filter((c) => c.method.startsWith('views.')).length;
    const before = submissions();
    await page.reload();
    await until(h, () => standIn.openViews(PEOPLE.dave).length === 0);
    await page.locator('.channel-link.active').waitFor();
    await modal.waitFor({ state: 'detached' });
    // Nothing reached the app's Web API on the modal's behalf (no preview, no update).
    expect(submissions()).toBe(before);

    // Opened again, the modal starts empty.
    await type(page, '/harbor vessel create dev');
    await modal.waitFor();
    expect(await modal.locator('.block.input input').first().inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // A modal that asked to hear of its closing: the reload clears it and the app is told.
    const app = await recordingApp();
    const botUrl = `http://127.0.0.1:${h.local.running.port}/slack/events`;
    h.local.workspace.connect(app.url);
    try {
      await webApi(h, 'views.open', {
        trigger_id: standIn.triggerId(undefined, PEOPLE.dave),
        view: {
          type: 'modal',
          notify_on_close: true,
          title: { type: 'plain_text', text: 'Notes' },
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Read me' } }],
        },
      });
      await modal.waitFor();
      await page.reload();
      await until(h, () => app.payloads.length > 0);
      expect(app.payloads[0]).toMatchObject({ type: 'view_closed', is_cleared: true });
      await page.locator('.channel-link.active').waitFor();
      await modal.waitFor({ state: 'detached' });
    } finally {
      h.local.workspace.connect(botUrl);
      await new Promise((resolve) => app.server.close(resolve));
    }
    await page.close();
  });
});

maybe('the local workspace with a slow bot', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    // "Working on it…" shows at once, so every answer that takes any time replaces it in place.
    h = await startBrowserHarness({}, { workingNoticeMs: 0 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('7: a tall answer that replaces "Working on it…" shows from its top, and stays so', async () => {
    const page = await h.open('carol', 'dev');
    await page.setViewportSize({ width: 1280, height: 420 });
    await threeHelpAnswers(page);
    // The hosting API answers the next list a second late: the page draws the notice first.
    const sim = h.local.running.core.api.simulatorUrl;
    const faults = await fetch(`${sim}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { method: 'GET', path: '/api/formation/v1/environments/dev/vessels', latencyMs: 1000, times: 1 },
      ]),
    });
    expect(faults.status).toBe(200);
    await type(page, '/harbor vessels dev');
    const answer = page.locator('.messages > .message.ephemeral').nth(3);
    await answer.filter({ hasText: 'Working on it' }).waitFor();
    await answer.filter({ hasText: 'lobby-1' }).waitFor();
    // The answer replaced the notice in place (response_url, replace_original): same message.
    const replaced = h.local.workspace.standIn
      .ephemerals()
      .find((e) => JSON.stringify(e.blocks).includes('lobby-1'));
    expect(replaced?.replaced?.[0]?.text).toContain('Working on it');
    expect(await topShows(page, '.messages > .message.ephemeral', '.messages', 3)).toBe(true);
    await redrawFromElsewhere(h, page);
    expect(await topShows(page, '.messages > .message.ephemeral', '.messages', 3)).toBe(true);
    await page.close();
  });
});
