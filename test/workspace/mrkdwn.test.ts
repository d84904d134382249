/** The page's mrkdwn and date rendering (pure functions, run in Node). */

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { formatSlackDate } from '../../src/workspace/page/dates.js';
import { emojiFor } from '../../src/workspace/page/emoji.js';
import { type MrkdwnContext, mrkdwnToHtml } from '../../src/workspace/page/mrkdwn.js';

const ctx: MrkdwnContext = {
  userName: (id) => ({ U0ALICE: 'alice' })[id],
  groupHandle: (id) => ({ S02SRE: 'sre' })[id],
  channelName: (id) => ({ C0HARBORPROD: 'harbor-prod' })[id],
  timeZone: 'Europe/Berlin',
  now: Date.UTC(2024, 2, 10, 12, 0, 0),
};

describe('mrkdwn', () => {
  it('draws emphasis, code and quotes, and escapes everything else', () => {
    expect(mrkdwnToHtml('*bold* _it_ ~gone~ `a*b*c`', ctx)).toBe(
      '<b>bold</b> <i>it</i> <s>gone</s> <code>a*b*c</code>',
    );
    expect(mrkdwnToHtml('```\n<script>x</script>\n```', ctx)).toBe(
      '<pre class="code-block">&lt;script&gt;x&lt;/script&gt;\n</pre>',
    );
    expect(mrkdwnToHtml('&lt;img src=x onerror=alert(1)&gt; a&amp;b', ctx)).toBe(
      '&lt;img src=x onerror=alert(1)&gt; a&amp;b',
    );
    expect(mrkdwnToHtml('&gt; quoted\nnext', ctx)).toBe('<blockquote>quoted</blockquote>next');
    expect(mrkdwnToHtml('snake_case_name and 2*3*4', ctx)).toBe('snake_case_name and 2*3*4');
    expect(mrkdwnToHtml(':white_check_mark: done :unknown:', ctx)).toBe(
      '<span class="emoji" title=":white_check_mark:">\u2705</span> done :unknown:',
    );
  });

  it('shows mentions as names and keeps only safe links', () => {
    expect(mrkdwnToHtml('<@U0ALICE> <!subteam^S02SRE> <#C0HARBORPROD>', ctx)).toBe(
      '<span class="mention" data-user="U0ALICE">@alice</span> <span class="mention group">@sre</span> <span class="mention channel-mention">#harbor-prod</span>',
    );
    expect(mrkdwnToHtml('<https://example.com/a?b=1&amp;c=2|docs>', ctx)).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener">docs</a>',
    );
    expect(mrkdwnToHtml('<javascript:alert(1)|x>', ctx)).toBe('&lt;javascript:alert(1)|x&gt;');
  });

  it('draws date tokens in the viewer time zone', () => {
    const seconds = Date.UTC(2024, 2, 10, 5, 7, 0) / 1000; // 06:07 in Berlin
    expect(mrkdwnToHtml(`<!date^${seconds}^{date_short_pretty} {time}|fallback>`, ctx)).toContain(
      '>today 6:07 AM<',
    );
    expect(
      formatSlackDate(seconds, '{date_num} {date_long}', { timeZone: 'America/New_York', now: ctx.now ?? 0 }),
    ).toBe('2024-03-10 Sunday, March 10th, 2024');
    expect(
      formatSlackDate(seconds - 86_400, '{date_pretty}', { timeZone: 'Europe/Berlin', now: ctx.now ?? 0 }),
    ).toBe('yesterday');
  });
});

/** Every `.ts` file under `dir`. */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

describe('emoji', () => {
  it('draws the emoji Slack would for :no_entry: and its look-alikes, and leaves unknown names as typed', () => {
    expect(mrkdwnToHtml(':no_entry: :no_entry_sign: :warning:', ctx)).toBe(
      '<span class="emoji" title=":no_entry:">\u26D4</span> <span class="emoji" title=":no_entry_sign:">\u{1F6AB}</span> <span class="emoji" title=":warning:">\u26A0\uFE0F</span>',
    );
    // Without a colour emoji font, text symbols stand in for the bot's emoji (others stay emoji).
    expect(mrkdwnToHtml(':no_entry: :tada:', { ...ctx, textEmoji: true })).toBe(
      '<span class="emoji text-emoji bad" title=":no_entry:">\u2296</span> <span class="emoji" title=":tada:">\u{1F389}</span>',
    );
    expect(mrkdwnToHtml(':+1: :not_an_emoji: :constructor:', ctx)).toBe(
      '<span class="emoji" title=":+1:">\u{1F44D}</span> :not_an_emoji: :constructor:',
    );
  });

  it('knows every shortcode the bot writes in what people read', async () => {
    // The user-facing layers; the store and config use ":memory:", which is no emoji.
    const dirs = ['src/slack', 'src/changes', 'src/tails', 'src/format', 'src/policy', 'src/releases'];
    const used = new Set<string>();
    for (const dir of dirs) {
      for (const file of await sources(dir)) {
        // Not inside a longer colon-separated name (undici's `undici:websocket:open` channel).
        for (const m of (await readFile(file, 'utf8')).matchAll(/(?<![\w:]):([a-z][a-z0-9_+-]*):/g))
          used.add(m[1] ?? '');
      }
    }
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => emojiFor(name) === undefined)).toEqual([]);
    // A browser without a colour emoji font (the offline page) draws each of them as a text symbol (issue 30.7).
    expect([...used].filter((name) => emojiFor(name, true)?.kind === undefined)).toEqual([]);
  });
});
