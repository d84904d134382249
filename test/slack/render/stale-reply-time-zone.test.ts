/**
 * The answer to a click on an expired change tells the expiry time right
 * whatever time zone the bot runs in. Under TZ=Europe/Berlin, 01:30Z on the
 * night clocks go forward (2026-03-29) was shown as "00:30 UTC": the core
 * formatted it by shifting with the local offset. The core now returns the
 * instant and the renderer draws Slack's date token, whose fallback is UTC.
 * Jest's sandbox keeps its own copy of the environment, so the time zone is
 * set where it takes effect: on a child process running the flow.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from '@jest/globals';
import { fixtureScript } from '../../support/fixture-script.js';

const run = promisify(execFile);

it('says a change expired at 01:30 UTC under TZ=Europe/Berlin on the night clocks go forward', async () => {
  const { stdout } = await run(
    process.execPath,
    [fixtureScript('test/slack/render/fixtures/expired-click-reply.ts')],
    {
      env: { ...process.env, TZ: 'Europe/Berlin' },
    },
  );
  const out = JSON.parse(stdout) as { kind: string; expiresAt: number; offset: number; reply: string };
  const expiresAt = Date.UTC(2026, 2, 29, 1, 30);
  // The child really ran in Berlin summer time.
  expect(out).toMatchObject({ kind: 'stale', expiresAt, offset: -120 });
  expect(out.reply).not.toContain('00:30');
  // Slack draws the instant in each reader's own zone; the fallback for old clients is UTC.
  expect(out.reply).toBe(
    `This change expired <!date^${expiresAt / 1000}^{date_short_pretty} {time}|2026-03-29 01:30 UTC> without being applied. Request it again if it is still needed.`,
  );
}, 30_000);
