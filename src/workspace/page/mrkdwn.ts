/**
 * Slack mrkdwn to safe HTML, the subset Slack's clients draw: *bold*,
 * _italic_, ~strike~, `code`, ```code blocks```, > quotes, links, user,
 * group and channel mentions shown as names, `<!here>`-style specials, and
 * `<!date^…>` tokens in the viewer's time zone. Everything else is text,
 * escaped. Pure (no DOM), so it is unit-tested in Node.
 */
import { formatSlackDate } from './dates.js';
import { emojiFor } from './emoji.js';

export interface MrkdwnContext {
  userName(id: string): string | undefined;
  groupHandle(id: string): string | undefined;
  channelName(id: string): string | undefined;
  timeZone?: string;
  now?: number;
  /** The browser has no colour emoji font: draw text symbols where they stand in for the bot's emoji. */
  textEmoji?: boolean;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Slack escapes &, < and > in message text; undo that before escaping for HTML.
const unescapeSlack = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const SAFE_URL = /^(https?:|mailto:)/i;

/** One `<…>` token as HTML. */
function token(inner: string, ctx: MrkdwnContext): string {
  const [target = '', label] = splitLabel(inner);
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const name = ctx.userName(id) ?? label ?? id;
    return `<span class="mention" data-user="${escapeHtml(id)}">@${escapeHtml(name)}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = ctx.channelName(id) ?? label ?? id;
    // Not "channel": that is the channel pane's class, whose flex layout would break the line.
    return `<span class="mention channel-mention">#${escapeHtml(name)}</span>`;
  }
  if (target.startsWith('!subteam^')) {
    const id = target.slice('!subteam^'.length);
    const handle = ctx.groupHandle(id) ?? label?.replace(/^@/, '') ?? id;
    return `<span class="mention group">@${escapeHtml(handle)}</span>`;
  }
  if (target.startsWith('!date^')) {
    const [, seconds = '', format = '', link] = target.split('^');
    const n = Number(seconds);
    if (!Number.isFinite(n)) return escapeHtml(unescapeSlack(label ?? ''));
    const text = escapeHtml(
      formatSlackDate(n, unescapeSlack(format), {
        ...(ctx.timeZone ? { timeZone: ctx.timeZone } : {}),
        ...(ctx.now !== undefined ? { now: ctx.now } : {}),
      }),
    );
    const title = escapeHtml(new Date(n * 1000).toISOString());
    return link && SAFE_URL.test(link)
      ? `<a href="${escapeHtml(link)}" title="${title}" target="_blank" rel="noopener">${text}</a>`
      : `<time class="date" datetime="${title}" title="${title}">${text}</time>`;
  }
  if (target.startsWith('!')) {
    const special = target.slice(1);
    return `<span class="mention special">@${escapeHtml(label ?? special)}</span>`;
  }
  const url = unescapeSlack(target);
  const here = localPermalink(url);
  if (here) {
    // A message permalink leads to the message on this page: slack.com knows nothing of the local workspace.
    const attrs = `data-channel-id="${escapeHtml(here.channel)}" data-ts="${escapeHtml(here.ts)}"${here.threadTs ? ` data-thread-ts="${escapeHtml(here.threadTs)}"` : ''}`;
    return `<a class="permalink" href="#" ${attrs}>${escapeHtml(unescapeSlack(label ?? target))}</a>`;
  }
  if (!SAFE_URL.test(url)) return escapeHtml(unescapeSlack(`<${inner}>`));
  return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener">${escapeHtml(unescapeSlack(label ?? target))}</a>`;
}

/** The message a Slack permalink (`https://slack.com/archives/C123/p1700000000123456[?thread_ts=…]`) points at. */
export function localPermalink(url: string): { channel: string; ts: string; threadTs?: string } | undefined {
  const m =
    /^https:\/\/[a-z0-9.-]*slack\.com\/archives\/([A-Z0-9]+)\/p(\d{10})(\d{6})(?:\?thread_ts=(\d+\.\d+))?/.exec(
      url,
    );
  if (!m?.[1] || !m[2] || !m[3]) return undefined;
  return { channel: m[1], ts: `${m[2]}.${m[3]}`, ...(m[4] ? { threadTs: m[4] } : {}) };
}

function splitLabel(inner: string): [string, string | undefined] {
  const bar = inner.indexOf('|');
  return bar < 0 ? [inner, undefined] : [inner.slice(0, bar), inner.slice(bar + 1)];
}

// *bold*, _italic_, ~strike~ on escaped text, only at word edges as in Slack.
function emphasis(html: string): string {
  const edge = (mark: string) =>
    new RegExp(
      `(^|[\\s(>\\u0001])\\${mark}([^\\s${mark}](?:[^${mark}\\n]*?[^\\s${mark}])?)\\${mark}(?=$|[\\s.,;:!?)<\\u0001])`,
      'g',
    );
  return html
    .replace(edge('*'), '$1<b>$2</b>')
    .replace(edge('_'), '$1<i>$2</i>')
    .replace(edge('~'), '$1<s>$2</s>');
}

/** Slack mrkdwn as HTML, safe to assign to innerHTML. */
export function mrkdwnToHtml(text: string, ctx: MrkdwnContext): string {
  // Placeholders keep finished HTML (code, tokens) away from the emphasis pass.
  const saved: string[] = [];
  const keep = (html: string) => {
    saved.push(html);
    return `\u0001${saved.length - 1}\u0001`;
  };
  let rest = text.replace(/```([\s\S]*?)```/g, (_m, code: string) =>
    keep(`<pre class="code-block">${escapeHtml(unescapeSlack(code.replace(/^\n/, '')))}</pre>`),
  );
  rest = rest.replace(/`([^`\n]+)`/g, (_m, code: string) =>
    keep(`<code>${escapeHtml(unescapeSlack(code))}</code>`),
  );
  rest = rest.replace(/<([^<>\n]+)>/g, (_m, inner: string) => keep(token(inner, ctx)));
  rest = rest.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => {
    const emoji = emojiFor(name, ctx.textEmoji === true);
    if (!emoji) return whole;
    const cls = emoji.kind ? `emoji text-emoji ${emoji.kind}` : 'emoji';
    return keep(`<span class="${cls}" title="${whole}">${emoji.symbol}</span>`);
  });
  let html = emphasis(escapeHtml(unescapeSlack(rest)));
  html = html
    .split('\n')
    .map((line) =>
      line.startsWith('&gt; ') || line === '&gt;'
        ? `<blockquote>${line.replace(/^&gt; ?/, '')}</blockquote>`
        : line,
    )
    .join('\n')
    .replace(/\n/g, '<br>')
    .replace(/<\/blockquote><br>/g, '</blockquote>');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: \u0001 is the placeholder mark set above; escaped text never contains it.
  return html.replace(/\u0001(\d+)\u0001/g, (_m, i: string) => saved[Number(i)] ?? '');
}

/** Plain text (plain_text objects) as HTML: escaped, with line breaks kept. */
export function plainToHtml(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}
