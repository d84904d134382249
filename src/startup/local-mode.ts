/**
 * Local mode: the bot with the local workspace as its Slack. The workspace
 * hands out the bot token and signing secret and serves Slack's Web API; the
 * bot runs exactly as in production (HTTP receiver, real WebClient pointed at
 * SLACK_API_URL) and serves the workspace's page on its own port, bound to
 * 127.0.0.1 unless HARBOR_LISTEN_HOST says otherwise.
 */
import type { Config } from '../config/config.js';
import type { Logger } from '../runtime/logger.js';
import { projectFile } from '../runtime/project-files.js';
import { TEST_TEAM } from '../workspace/identity.js';
import { CHANNELS, PEOPLE } from '../workspace/people.js';
import { startWorkspace, type Workspace } from '../workspace/workspace.js';
import { type RunningBot, type StartBotOptions, startBot } from './start-bot.js';

export interface LocalBot {
  running: RunningBot;
  workspace: Workspace;
  /** Where a person opens the workspace, e.g. http://localhost:3000 */
  url: string;
  /** The config the bot runs with (the workspace's credentials filled in). */
  config: Config;
  stop(): Promise<void>;
}

export interface LocalBotOptions extends StartBotOptions {
  /** Tests only: the workspace's Slack limits multiplied by this (default 1: Slack's real ones). */
  workspaceLimitsScale?: number;
}

/** Starts the workspace, then the bot against it, and connects the two. */
export async function startLocalBot(
  config: Config,
  logger: Logger,
  options: LocalBotOptions = {},
): Promise<LocalBot> {
  const { workspaceLimitsScale, ...botOptions } = options;
  const workspace = await startWorkspace({
    command: config.slack.command,
    manifestPath: projectFile('manifest.yml'),
    ...(workspaceLimitsScale ? { limitsScale: workspaceLimitsScale } : {}),
  });
  const local: Config = {
    ...config,
    slack: {
      ...config.slack,
      botToken: workspace.botToken,
      signingSecret: workspace.signingSecret,
      apiUrl: workspace.apiUrl,
      appToken: undefined,
      mode: 'http',
    },
    // The example policy names the workspace's demo groups, so approvals work as documented.
    policyPath: config.policyPath ?? projectFile('examples/policy.yml'),
  };
  let running: RunningBot;
  try {
    running = await startBot(local, logger, {
      ...botOptions,
      routes: [...(botOptions.routes ?? []), ...workspace.routes],
    });
  } catch (err) {
    await workspace.stop();
    throw err;
  }
  await watchDemoChannel(running, logger);
  const host = config.slack.host;
  const loopback = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  workspace.connect(
    `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${running.port}/slack/events`,
  );
  const shownHost = !host || host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
  logger.warn(
    `LOCAL MODE: no Slack involved. A local workspace plays Slack in your browser; the bot listens on ${host ?? 'all interfaces'} port ${running.port}${host === '127.0.0.1' ? ' (this machine only; set HARBOR_LISTEN_HOST to change it)' : ''}. Set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (or SLACK_SIGNING_SECRET) to use a real Slack workspace.`,
  );
  // How to try a freeze with the demo policy (examples/policy.yml: the SREs are its break-glass approvers).
  logger.warn(
    'LOCAL MODE: to try a freeze, type `/harbor freeze dev for 15m demo`, then `/harbor formation remove dev lobby lobby-2` (refused, no preview); add `--break-glass "why"` and an SRE approves it; `/harbor freezes` lists freezes, `/harbor unfreeze dev` ends it.',
  );
  // How to try a guarded rollout (issue 42): the demo's dev game-server:1.0.0 crashes on start.
  logger.warn(
    'LOCAL MODE: to try a guarded rollout, type `/harbor armada image dev duel game-server:1.0.0` (the demo\'s bad build: it crashes on start) and Confirm: the preview says it is guarded (examples/policy.yml\'s dev-rollouts rule: 15 min); within a few housekeeping passes its servers are seen not to become Ready and it is rolled back automatically, its message and thread saying why. `--no-guard` opts out; a healthy build (`game-server:1.1.0`) ends with "Guard passed" after 15 min.',
  );
  return {
    running,
    workspace,
    url: `http://${shownHost}:${running.port}`,
    config: local,
    stop: async () => {
      await running.stop();
      await workspace.stop();
    },
  };
}

/**
 * The demo's watched channel: #harbor-dev watches dev from the start, so a
 * newcomer sees an alert (fail a vessel in the embedded simulator), opens
 * What changed and follows it to the change, with no account anywhere.
 */
async function watchDemoChannel(running: RunningBot, logger: Logger): Promise<void> {
  const channel = CHANNELS.find((c) => c.name === 'harbor-dev');
  if (!channel) return;
  await running.core.store.addWatch({
    workspace: TEST_TEAM.id,
    channel: channel.id,
    env: 'dev',
    createdBy: PEOPLE[0]?.id ?? 'U0HARBOR',
    createdAt: Date.now(),
  });
  const sim = running.core.api.simulatorUrl;
  logger.warn(
    `LOCAL MODE: #${channel.name} watches environment dev.${sim ? ` To see an alert, fail a vessel: curl -X POST ${sim}/_sim/vessels/dev/duel-1/fail -H 'content-type: application/json' -d '{"reason":"OOMKilled"}', or take a Site down (its region's fleets go Degraded): curl -X POST ${sim}/_sim/sites/fra-bm-1-01 -H 'content-type: application/json' -d '{"state":"Error","reason":"connection lost"}'; post '{}' to either to end it.` : ''}`,
  );
}
