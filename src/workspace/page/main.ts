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
import { renderModal } from './modal.js';
import { mrkdwnToHtml } from './mrkdwn.js';

type Json = Record<string, any>;

const params = new URLSearchParams(location.search);
let state: Json | undefined;
let viewer = params.get('as') ?? localStorage.getItem('harbor.viewer') ?? '';
let channel = params.get('channel') ?? localStorage.getItem('harbor.channel') ?? '';
let thread: string | undefined;

const app = document.getElementById('app') as HTMLElement;
const sidebar = h('nav', { class: 'sidebar' });
const header = h('header', { class: 'channel-header' });
const list = h('div', { class: 'messages', role: 'log', 'aria-label': 'Messages' });
const hint = h('div', { class: 'composer-hint' });
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
      void post('command', { user: viewer, channel, text }).then((o) => {
        if (!o.ok) toast(o.error ?? 'failed');
      });
    },
  },
  hint,
  input,
);
const threadPanel = h('aside', { class: 'thread-panel', hidden: true });
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

function person(id: string): Json | undefined {
  return (state?.people ?? []).find((p: Json) => p.id === id);
}

function renderContext(): Omit<RenderContext, 'onAction' | 'inputs'> {
  return {
    mrkdwn: {
      userName: (id) => (id === state?.bot?.id ? state?.bot?.name : person(id)?.name),
      groupHandle: (id) => (state?.groups ?? []).find((g: Json) => g.id === id)?.handle,
      channelName: (id) => (state?.channels ?? []).find((c: Json) => c.id === id)?.name,
    },
  };
}

function timeOf(ts: string): string {
  return new Date(Number(ts) * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
}

function messageView(m: Json, inThread: boolean): HTMLElement {
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
    { class: `message${m.ephemeral ? ' ephemeral' : ''}`, 'data-ts': m.ts },
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

function openThread(ts: string | undefined): void {
  thread = ts;
  render();
}

// Keeps the view pinned to the newest message when it was already at the bottom.
function keepScroll(el: HTMLElement, draw: () => void): void {
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  const top = el.scrollTop;
  draw();
  el.scrollTop = atBottom ? el.scrollHeight : top;
}

function render(): void {
  if (!state) return;
  const channels: Json[] = state.channels;
  const current = channels.find((c) => c.id === channel) ?? channels[0];
  channel = current?.id ?? '';
  const messages: Json[] = state.messages[channel] ?? [];
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
          localStorage.setItem('harbor.viewer', viewer);
          void refresh();
        },
      },
      ...(state.people as Json[]).map((p) => {
        const groups = (state?.groups as Json[]).filter((g) => (g.members as string[]).includes(p.id));
        const label = `${p.realName} · ${groups.map((g) => `@${g.handle}`).join(', ')} (${p.role})`;
        return h('option', { value: p.id, selected: p.id === viewer }, label);
      }),
    ),
    h(
      'div',
      { class: 'groups' },
      ...(state.groups as Json[]).map((g) => h('div', { class: 'group' }, `@${g.handle}: ${g.name}`)),
    ),
    h('div', { class: 'section-label' }, 'Channels'),
    ...channels.map((c) =>
      h(
        'button',
        {
          type: 'button',
          class: `channel-link${c.id === channel ? ' active' : ''}`,
          'data-channel': c.name,
          onclick: () => {
            channel = c.id;
            thread = undefined;
            localStorage.setItem('harbor.channel', channel);
            render();
          },
        },
        `# ${c.name}`,
      ),
    ),
  );
  header.replaceChildren(
    h('span', { class: 'channel-title' }, `# ${current?.name ?? ''}`),
    h('span', { class: 'viewer' }, `viewing as @${person(viewer)?.name ?? viewer}`),
  );
  input.placeholder = `Message #${current?.name ?? ''} (try ${state.hint.command} help)`;
  keepScroll(list, () =>
    list.replaceChildren(...messages.filter((m) => !m.threadTs).map((m) => messageView(m, false))),
  );
  const parent = thread ? messages.find((m) => m.ts === thread) : undefined;
  threadPanel.hidden = !parent;
  if (parent) {
    const replies = messages.filter((m) => m.threadTs === parent.ts);
    const body = h(
      'div',
      { class: 'thread-messages' },
      messageView(parent, true),
      h(
        'div',
        { class: 'thread-divider' },
        `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
      ),
      ...replies.map((m) => messageView(m, true)),
    );
    threadPanel.replaceChildren(
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
      body,
    );
  }
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
      if (!(next.people as Json[]).some((p) => p.id === viewer)) viewer = next.people[0]?.id ?? '';
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

const events = new EventSource('/workspace/stream');
events.addEventListener('change', () => void refresh());
events.addEventListener('open', () => void refresh());
void refresh();
