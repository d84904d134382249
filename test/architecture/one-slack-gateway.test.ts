/**
 * One way to Slack's Web API (issue 40): the gateway (src/slack/gateway/)
 * is the only code in src/ that makes a Web API client, so every call the
 * bot makes is ordered and paced by it and every 429 reaches its one hold
 * (Bolt's and Socket Mode's clients are made inside those libraries; the bot
 * calls nothing through them).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

it('only the Slack gateway makes a Web API client', () => {
  const makers = sources(SRC)
    .filter((path) => /new\s+WebClient\s*\(/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(SRC, path));
  expect(makers).toEqual(['slack/gateway/gateway.ts']);
});

// The Slack stand-in and the hosting API's simulator answer 429s; they do not read them.
it('only the gateway reads a 429 (one Retry-After hold)', () => {
  const readers = sources(SRC)
    .filter((path) => /RateLimitedError|rejectRateLimitedCalls|retryAfter\b/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(SRC, path))
    .filter((path) => !path.startsWith('workspace/') && !path.startsWith('simulator/'));
  expect(readers.every((path) => path.startsWith('slack/gateway/'))).toBe(true);
});

it('tails ask to edit or to post, and name no Slack method', () => {
  const naming = sources(join(SRC, 'tails'))
    .filter((path) => /\b(chat|views|conversations)\.[a-zA-Z]+/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(SRC, path));
  expect(naming).toEqual([]);
});
