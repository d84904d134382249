/**
 * The local workspace in a real browser: the bot started the way `npm start`
 * starts it in local mode (startLocalBot: embedded simulator, workspace,
 * example policy), and Debian's Chromium driven by playwright-core, headless,
 * in a fresh browser context (its own cookies and storage, as a fresh profile).
 * Tests act only through the page, as a person would, and keep a screenshot of
 * each flow under test-artifacts/workspace/.
 *
 * The Chromium itself is the jest worker's (scripts/jest-environment.cjs): one
 * per worker, not one per file, which cost each browser file about 3 s of CPU.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, LaunchOptions, Page } from 'playwright-core';
import { readConfig } from '../../../src/config/config.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { type LocalBot, type LocalBotOptions, startLocalBot } from '../../../src/startup/local-mode.js';
import { FAST_SLACK_BUDGET } from '../../e2e/slack/bot-harness.js';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Set by .ci/run (and by CI services, which set `CI`): the browser flows must
 * run there, so a missing Chromium fails them instead of skipping them.
 */
const REQUIRED = Boolean(process.env.HARBOR_REQUIRE_BROWSER || process.env.CI);
const MISSING = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" to run the browser flows`;
/** Why browser tests skip (Chromium missing outside CI), or undefined when they run. */
export const SKIP_REASON = REQUIRED ? undefined : MISSING;

const LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
  ],
};

/** The worker's shared Chromium, set on the global by scripts/jest-environment.cjs. */
type SharedChromium = (options: LaunchOptions) => Promise<Browser>;

/**
 * The worker's Chromium and nothing to close, or (under another jest environment) a
 * browser of this harness's own, closed with it.
 */
async function browser(): Promise<{ browser: Browser; own: boolean }> {
  const shared = (globalThis as { harborSharedChromium?: SharedChromium }).harborSharedChromium;
  if (shared) return { browser: await shared(LAUNCH), own: false };
  const { chromium } = await import('playwright-core');
  return { browser: await chromium.launch(LAUNCH), own: true };
}

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'workspace');

export const PEOPLE = { alice: 'U0ALICE', dave: 'U0DAVE', bob: 'U0BOB', carol: 'U0CAROL' } as const;
export const CHANNELS = { dev: 'C0HARBORDEV', prod: 'C0HARBORPROD' } as const;

export interface BrowserHarness {
  local: LocalBot;
  context: BrowserContext;
  logs: ReturnType<typeof createMemoryLogger>;
  /** A new tab on the workspace as `person` in `channel`. */
  open(person: keyof typeof PEOPLE, channel: keyof typeof CHANNELS): Promise<Page>;
  /** Saves a full-page screenshot as test-artifacts/workspace/<name>.png. */
  screenshot(page: Page, name: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the bot in local mode and a fresh context in the worker's headless Chromium. `bot`
 * adds start options (e.g. `workingNoticeMs`) to the harness's own.
 */
export async function startBrowserHarness(
  env: Record<string, string> = {},
  bot: Pick<LocalBotOptions, 'workingNoticeMs'> = {},
): Promise<BrowserHarness> {
  if (MISSING) throw new Error(`${MISSING} (required here: HARBOR_REQUIRE_BROWSER or CI is set)`);
  const config = readConfig({ PORT: '0', HARBOR_LOCAL: '1', ...env });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  const logs = createMemoryLogger();
  // Slack's pace is not what these flows are about: the bot's budget and the workspace's limits
  // both run a hundred times faster (same gates and order), so a tail redraws as its lines come.
  const local = await startLocalBot(config.config, logs, {
    follow: { pollMs: 20, timeoutMs: 10_000 },
    tails: { budget: FAST_SLACK_BUDGET },
    workspaceLimitsScale: 100,
    ...bot,
  });
  let chromium: Browser;
  let own: boolean;
  let context: BrowserContext;
  try {
    ({ browser: chromium, own } = await browser());
  } catch (err) {
    await local.stop();
    throw err;
  }
  try {
    context = await chromium.newContext({
      viewport: { width: 1280, height: 860 },
      timezoneId: 'Europe/Berlin',
      locale: 'en-US',
    });
  } catch (err) {
    if (own) await chromium.close();
    await local.stop();
    throw err;
  }
  context.setDefaultTimeout(10_000);
  await mkdir(ARTIFACTS, { recursive: true });
  return {
    local,
    context,
    logs,
    open: async (person, channel) => {
      const page = await context.newPage();
      await page.goto(`${local.url}/?as=${PEOPLE[person]}&channel=${CHANNELS[channel]}`);
      await page.locator('.channel-link.active').waitFor();
      return page;
    },
    screenshot: async (page, name) => {
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    stop: async () => {
      await context.close();
      if (own) await chromium.close();
      await local.stop();
    },
  };
}

/** Types `text` into the composer and sends it. */
export async function type(page: Page, text: string): Promise<void> {
  await page.locator('.composer-input').fill(text);
  await page.locator('.composer-input').press('Enter');
}

/** The latest top-level message in the channel whose text matches `pattern`. */
export function message(page: Page, pattern: RegExp | string) {
  return page.locator('.messages > .message', { hasText: pattern }).last();
}
