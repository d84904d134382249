/**
 * The local workspace in a real browser: the bot started the way `npm start`
 * starts it in local mode (startLocalBot: embedded simulator, workspace,
 * example policy), and Debian's Chromium driven by playwright-core, headless,
 * with a fresh profile. Tests act only through the page, as a person would,
 * and keep a screenshot of each flow under test-artifacts/workspace/.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { readConfig } from '../../../src/config/config.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { type LocalBot, startLocalBot } from '../../../src/startup/local-mode.js';
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

/** Starts the bot in local mode and a headless Chromium with a fresh user-data dir. */
export async function startBrowserHarness(env: Record<string, string> = {}): Promise<BrowserHarness> {
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
  });
  const profile = await mkdtemp(join(tmpdir(), 'harbor-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
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
      viewport: { width: 1280, height: 860 },
      timezoneId: 'Europe/Berlin',
      locale: 'en-US',
    });
  } catch (err) {
    await local.stop();
    await rm(profile, { recursive: true, force: true });
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
      await local.stop();
      await rm(profile, { recursive: true, force: true });
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
