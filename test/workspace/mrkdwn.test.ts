/** The page's mrkdwn and date rendering (pure functions, run in Node). */
import { describe, expect, it } from '@jest/globals';
import { formatSlackDate } from '../../src/workspace/page/dates.js';
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
      '<span class="emoji ok" title=":white_check_mark:">\u2714</span> done :unknown:',
    );
  });

  it('shows mentions as names and keeps only safe links', () => {
    expect(mrkdwnToHtml('<@U0ALICE> <!subteam^S02SRE> <#C0HARBORPROD>', ctx)).toBe(
      '<span class="mention" data-user="U0ALICE">@alice</span> <span class="mention group">@sre</span> <span class="mention channel">#harbor-prod</span>',
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
