/**
 * The local workspace page: a Slack-like channel view of the bot. It draws
 * the viewer's state, refetches it whenever the server-sent stream says
 * something changed (so edited messages and live tails update in place), and
 * turns every click, submission and command into a workspace verb, which the
 * workspace sends to the bot as a signed Slack request.
 */
import './style.css';
import { fetchState, post } from './api.js';
import { type RenderContext, renderBlocks } from './blocks.js';
import { h } from './dom.js';
import { hasColourEmoji } from './emoji-font.js';
import { Follow } from './follow.js';
import { renderModal } from './modal.js';
import { mrkdwnToHtml } from './mrkdwn.js';
import { keepTabChoice, tabChoice } from './tab.js';
import type { Block, PageMessage, PageState, Person } from './types.js';

let state: PageState | undefined;
let viewer = tabChoice('as');
let channel = tabChoice('channel');
let thread: string | undefined;

const app = document.getElementById('app') as HTMLElement;
const sidebar = h('nav', { class: 'sidebar' });
const header = h('header', { class: 'channel-header' });
const list = h('div', { class: 'messages', role: 'log', 'aria-label': 'Messages' });
// Hidden until a command is typed: an empty hint would be a bordered box above the composer.
const hint = h('div', { class: 'composer-hint', hidden: true });
const input = h('input', {
  class: 'composer-input',
  type: 'text',
  autocomplete: 'off',
  'aria-label': 'Message',
}) as HTMLInputElement;
const composer = h(
  'form',
  {
    class: 'composer',
    onsubmit: (event: Event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = '';
      showHint();
      // The answer lands at the bottom: go there now, so it shows when it comes (as Slack does).
      listFollow.toNewest();
      void post('command', { user: viewer, channel, text }).then((o) => {
        if (!o.ok) toast(o.error ?? 'failed');
      });
    },
  },
  hint,
  input,
);
const threadPanel = h('aside', { class: 'thread-panel', hidden: true });
// Kept across redraws, so the thread keeps its scroll position and follows its newest reply.
const threadBody = h('div', { class: 'thread-messages' });
const listFollow = new Follow(list);
const threadFollow = new Follow(threadBody);
let shownThread: string | undefined;
// The message a permalink led to: kept marked through redraws until another channel or link is chosen.
let highlighted: string | undefined;
threadPanel.append(
  h(
    'div',
    { class: 'thread-header' },
    h('b', {}, 'Thread'),
    h(
      'button',
      {
        type: 'button',
        class: 'close-thread',
        'aria-label': 'Close thread',
        onclick: () => openThread(undefined),
      },
      '×',
    ),
  ),
  threadBody,
);
const modalRoot = h('div', { class: 'modal-root' });
const toasts = h('div', { class: 'toasts', role: 'status' });
app.replaceChildren(
  h(
    'div',
    { class: 'layout' },
    sidebar,
    h('main', { class: 'channel' }, header, list, composer),
    threadPanel,
  ),
  modalRoot,
  toasts,
);

input.addEventListener('input', showHint);

// The usage hint from manifest.yml, shown while a command is typed (as Slack does).
function showHint(): void {
  const cmd = state?.hint?.command ?? '/harbor';
  const typed = input.value;
  const show =
    typed.startsWith('/') && (cmd.startsWith(typed.split(' ')[0] ?? '') || typed.startsWith(`${cmd} `));
  hint.hidden = !show;
  hint.replaceChildren(
    h('b', {}, cmd),
    ' ',
    h('span', { class: 'usage' }, state?.hint?.usageHint ?? ''),
    ...(state?.hint?.description ? [h('div', { class: 'description' }, state.hint.description)] : []),
  );
}

function toast(text: string): void {
  const el = h('div', { class: 'toast' }, text);
  toasts.append(el);
  setTimeout(() => el.remove(), 8000);
}

function person(id: string): Person | undefined {
  return (state?.people ?? []).find((p) => p.id === id);
}

const textEmoji = !hasColourEmoji();
document.body.dataset.emoji = textEmoji ? 'text' : 'colour';

function renderContext(): Omit<RenderContext, 'onAction' | 'inputs'> {
  return {
    mrkdwn: {
      textEmoji,
      userName: (id) => (id === state?.bot?.id ? state?.bot?.name : person(id)?.name),
      groupHandle: (id) => (state?.groups ?? []).find((g) => g.id === id)?.handle,
      channelName: (id) => (state?.channels ?? []).find((c) => c.id === id)?.name,
    },
  };
}

function timeOf(ts: string): string {
  return new Date(Number(ts) * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
}

/**
 * The message nodes the last redraw drew, by pane and ts, with what they were drawn from. A
 * redraw keeps a node whose message and surroundings are unchanged instead of drawing it again:
 * a live tail redraws the page many times a second, and a button replaced between a person's
 * press and release (or between a test's finding it and clicking it) loses the click. A kept
 * node also keeps what the person did to it (an open menu, a chosen option), as Slack does.
 */
type DrawnNodes = Map<string, { from: string; node: HTMLElement }>;
let drawn: DrawnNodes = new Map();

/** What every message's drawing depends on besides the message: names, shortcuts, the highlight. */
function surroundings(): string {
  return JSON.stringify([
    state?.bot,
    state?.people,
    state?.groups,
    state?.channels,
    state?.hint.shortcuts,
    highlighted,
  ]);
}

/** The node for `m` in its pane: the one drawn last time when nothing it shows has changed; kept in `next`. */
function messageNode(m: PageMessage, inThread: boolean, around: string, next: DrawnNodes): HTMLElement {
  const id = `${inThread ? 'thread' : 'list'}:${m.ts}`;
  const from = `${around}\n${JSON.stringify(m)}`;
  const last = drawn.get(id);
  const node = last?.from === from ? last.node : messageView(m, inThread);
  next.set(id, { from, node });
  return node;
}

function messageView(m: PageMessage, inThread: boolean): HTMLElement {
  const isBot = m.user === state?.bot?.id;
  const who = isBot ? state?.bot?.name : (person(m.user)?.realName ?? m.user);
  const ctx: RenderContext = {
    ...renderContext(),
    onAction: (event) =>
      void post('action', {
        user: viewer,
        channel,
        messageTs: m.ts,
        ephemeral: m.ephemeral,
        ...event,
      }).then((o) => {
        if (!o.ok) toast(`The app did not take the click: ${o.error}`);
      }),
  };
  const body =
    Array.isArray(m.blocks) && m.blocks.length > 0
      ? renderBlocks(m.blocks, ctx)
      : h('div', { class: 'text mrkdwn', html: mrkdwnToHtml(m.text ?? '', ctx.mrkdwn) });
  return h(
    'div',
    {
      class: `message${m.ephemeral ? ' ephemeral' : ''}${m.ts === highlighted ? ' highlight' : ''}`,
      'data-ts': m.ts,
      // What the pane follows as "a new message": a whole replacement counts as one (follow.ts).
      'data-arrival': m.replaced ? `${m.ts}#${m.replaced}` : m.ts,
    },
    h(
      'div',
      { class: `avatar${isBot ? ' bot' : ''}` },
      String(who ?? '?')
        .slice(0, 1)
        .toUpperCase(),
    ),
    h(
      'div',
      { class: 'message-main' },
      h(
        'div',
        { class: 'message-meta' },
        h('span', { class: 'author' }, String(who)),
        isBot ? h('span', { class: 'app-badge' }, 'APP') : null,
        h('span', { class: 'time' }, timeOf(m.ts)),
        m.edited ? h('span', { class: 'edited' }, '(edited)') : null,
        m.ephemeral ? null : shortcutMenu(m),
      ),
      m.ephemeral ? h('div', { class: 'only-you' }, 'Only visible to you') : null,
      body,
      !inThread && m.replyCount > 0
        ? h(
            'button',
            { type: 'button', class: 'reply-count', onclick: () => openThread(m.ts) },
            `${m.replyCount} ${m.replyCount === 1 ? 'reply' : 'replies'}`,
          )
        : null,
    ),
  );
}

/**
 * A message's "More actions" menu with the app's message shortcuts, as in
 * Slack; choosing one sends the app a signed `message_action`.
 */
function shortcutMenu(m: PageMessage): HTMLElement | null {
  const shortcuts = state?.hint.shortcuts ?? [];
  if (shortcuts.length === 0) return null;
  const menu = h(
    'div',
    { class: 'shortcut-menu', role: 'menu', hidden: true },
    ...shortcuts.map((sc) =>
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          class: 'shortcut',
          onclick: () => {
            menu.hidden = true;
            void post('shortcut', { user: viewer, channel, messageTs: m.ts, callbackId: sc.callbackId }).then(
              (o) => {
                if (!o.ok) toast(`The app did not take the shortcut: ${o.error}`);
              },
            );
          },
        },
        sc.name,
      ),
    ),
  );
  return h(
    'span',
    { class: 'message-actions' },
    h(
      'button',
      {
        type: 'button',
        class: 'more-actions',
        'aria-label': 'More actions',
        onclick: () => {
          menu.hidden = !menu.hidden;
        },
      },
      '⋯',
    ),
    menu,
  );
}

/** Whether the app's Home tab fills the main pane instead of a channel. */
let homeOpen = false;

/** Opens the app's Home tab: Slack tells the app (`app_home_opened`), which publishes it. */
function openHome(): void {
  homeOpen = true;
  thread = undefined;
  render();
  void post('home', { user: viewer }).then((o) => {
    if (!o.ok) toast(`We had some trouble connecting: ${o.error}`);
  });
}

/** The Home tab's blocks; a click in them names the Home view, as Slack's payload does. */
function homeView(home: { id: string; blocks: Block[] } | undefined): HTMLElement {
  if (!home) return h('div', { class: 'home-empty' }, 'Loading the Home tab…');
  const ctx: RenderContext = {
    ...renderContext(),
    onAction: (event) =>
      void post('action', { user: viewer, viewId: home.id, ...event }).then((o) => {
        if (!o.ok) toast(`The app did not take the click: ${o.error}`);
      }),
  };
  return h('div', { class: 'home-tab' }, renderBlocks(home.blocks, ctx));
}

function openThread(ts: string | undefined): void {
  thread = ts;
  render();
}

function render(): void {
  if (!state) return;
  // Narrowed once: the closures below cannot see that the module's state is set.
  const people = state;
  const channels = state.channels;
  const current = channels.find((c) => c.id === channel) ?? channels[0];
  channel = current?.id ?? '';
  const messages = state.messages[channel] ?? [];
  sidebar.replaceChildren(
    h('div', { class: 'workspace-name' }, 'Harbor (local)'),
    h('label', { class: 'you-are-label', for: 'you-are' }, 'You are'),
    h(
      'select',
      {
        id: 'you-are',
        class: 'you-are',
        onchange: (event: Event) => {
          viewer = (event.target as HTMLSelectElement).value;
          keepTabChoice('as', viewer);
          void refresh();
          // The Home tab in view is the new person's now: Slack tells the app, which draws theirs.
          if (homeOpen) openHome();
        },
      },
      ...state.people.map((p) => {
        const groups = people.groups.filter((g) => g.members.includes(p.id));
        const label = `${p.realName} · ${groups.map((g) => `@${g.handle}`).join(', ')} (${p.role})`;
        return h('option', { value: p.id, selected: p.id === viewer }, label);
      }),
    ),
    h(
      'div',
      { class: 'groups' },
      ...state.groups.map((g) => h('div', { class: 'group' }, `@${g.handle}: ${g.name}`)),
    ),
    h('div', { class: 'section-label' }, 'Channels'),
    ...channels.map((c) =>
      h(
        'button',
        {
          type: 'button',
          class: `channel-link${c.id === channel && !homeOpen ? ' active' : ''}`,
          'data-channel': c.name,
          onclick: () => {
            channel = c.id;
            homeOpen = false;
            thread = undefined;
            highlighted = undefined;
            keepTabChoice('channel', channel);
            render();
            listFollow.toNewest();
          },
        },
        `# ${c.name}`,
      ),
    ),
    h('div', { class: 'section-label' }, 'Apps'),
    h(
      'button',
      { type: 'button', class: `channel-link app-link${homeOpen ? ' active' : ''}`, onclick: openHome },
      state.bot.name,
    ),
  );
  header.replaceChildren(
    h('span', { class: 'channel-title' }, `# ${current?.name ?? ''}`),
    h('span', { class: 'viewer' }, `viewing as @${person(viewer)?.name ?? viewer}`),
  );
  input.placeholder = `Message #${current?.name ?? ''} (try ${state.hint.command} help)`;
  composer.hidden = homeOpen;
  if (homeOpen) {
    header.replaceChildren(h('span', { class: 'channel-title' }, `${state.bot.name} · Home`));
    list.replaceChildren(homeView(state.home));
  }
  // Message nodes are kept from the last redraw where unchanged (see `drawn`).
  const around = surroundings();
  const next: DrawnNodes = new Map();
  const node = (m: PageMessage, inThread: boolean) => messageNode(m, inThread, around, next);
  if (!homeOpen) {
    listFollow.redraw(() =>
      list.replaceChildren(...messages.filter((m) => !m.threadTs).map((m) => node(m, false))),
    );
  }
  const parent = thread ? messages.find((m) => m.ts === thread) : undefined;
  threadPanel.hidden = !parent;
  if (parent) {
    const replies = messages.filter((m) => m.threadTs === parent.ts);
    threadFollow.redraw(() =>
      threadBody.replaceChildren(
        node(parent, true),
        h(
          'div',
          { class: 'thread-divider' },
          `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
        ),
        ...replies.map((m) => node(m, true)),
      ),
    );
    // A thread opens at its newest reply, as in Slack.
    if (shownThread !== parent.ts) threadFollow.toNewest();
  }
  drawn = next;
  shownThread = parent?.ts;
  renderModal(modalRoot, state.views ?? [], { viewer: () => viewer, renderContext, toast });
}

let fetching = false;
let again = false;
// One fetch at a time; changes that arrive meanwhile cause one more.
async function refresh(): Promise<void> {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      const next = await fetchState(viewer);
      if (!next.people.some((p) => p.id === viewer)) viewer = next.people[0]?.id ?? '';
      state = next;
      render();
      document.body.dataset.version = String(next.version);
    } while (again);
  } catch {
    toast('The workspace is not reachable (is npm start still running?)');
  } finally {
    fetching = false;
  }
}

// A permalink in any message or on the Home tab opens its channel (and thread) and shows the message.
document.addEventListener('click', (event) => {
  const link = (event.target as HTMLElement | null)?.closest?.('a.permalink') as HTMLAnchorElement | null;
  if (!link) return;
  event.preventDefault();
  const { channelId, ts, threadTs } = link.dataset;
  if (!channelId || !ts) return;
  channel = channelId;
  homeOpen = false;
  thread = threadTs && threadTs !== ts ? threadTs : undefined;
  highlighted = ts;
  keepTabChoice('channel', channel);
  render();
  document.querySelector(`.message[data-ts="${CSS.escape(ts)}"]`)?.scrollIntoView({ block: 'center' });
});

const events = new EventSource('/workspace/stream');
events.addEventListener('change', () => void refresh());
events.addEventListener('open', () => void refresh());
void refresh();
