/**
 * The bare Bolt app of the memory benchmark as a process's entry point,
 * configured from the environment as main.ts is (SLACK_SIGNING_SECRET,
 * SLACK_BOT_TOKEN, SLACK_API_URL, PORT), so both apps start the same way:
 * bundled to plain JavaScript and run by node, with no TypeScript loader in
 * the process to skew its memory or start time.
 */
import { startBareBolt } from './bare-bolt.js';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`memory-bare needs ${name}`);
  return value;
}

await startBareBolt({
  signingSecret: setting('SLACK_SIGNING_SECRET'),
  token: setting('SLACK_BOT_TOKEN'),
  slackApiUrl: setting('SLACK_API_URL'),
  port: Number(setting('PORT')),
});
