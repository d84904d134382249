/**
 * Slack flows take only the parts of BotContext they read (issue 10), named
 * by the kind of flow (issue 25, 7): `FormCtx`, `RequestCtx`, `SubmitCtx`,
 * `TailCtx`... in slack/handlers/context.ts, rather than a hand-written
 * `Pick<BotContext, ...>` per function (43 of them, three identical for
 * submissions). This guards against a flow going back to the whole bag, and
 * against the hand-written Picks growing back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const SLACK = join(dirname(fileURLToPath(import.meta.url)), '../../src/slack');

function flowFiles(): string[] {
  const inDir = (dir: string) =>
    readdirSync(join(SLACK, dir))
      .filter((name) => name.endsWith('.ts') && name !== 'context.ts')
      .map((name) => join(dir, name));
  return [...inDir('handlers'), ...inDir('releases'), ...inDir('history')];
}

describe('the Slack flows', () => {
  it('take a Pick of BotContext, never the whole context', () => {
    const sources = flowFiles().map((file) => ({ file, text: readFileSync(join(SLACK, file), 'utf8') }));
    // The check sees what it is meant to: the flows do take the named narrow contexts.
    expect(sources.filter(({ text }) => /\b[A-Z]\w*Ctx\b/.test(text)).length).toBeGreaterThan(10);
    const picks = sources.flatMap(({ text }) => text.match(/Pick<\s*BotContext\b/g) ?? []);
    expect(picks.length).toBeLessThanOrEqual(8);
    const whole = sources.filter(({ text }) => /\w+\??: BotContext\b/.test(text)).map(({ file }) => file);
    expect(whole).toEqual([]);
  });
});
