/**
 * Slack flows take only the parts of BotContext they read (issue 10): a
 * `Pick<BotContext, ...>` per function, so the typecheck proves what each flow
 * depends on. This guards against a flow going back to the whole 17-field bag.
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
    // The check sees what it is meant to: the flows do take narrowed contexts.
    expect(sources.filter(({ text }) => text.includes('Pick<BotContext')).length).toBeGreaterThan(10);
    const whole = sources.filter(({ text }) => /\w+\??: BotContext\b/.test(text)).map(({ file }) => file);
    expect(whole).toEqual([]);
  });
});
