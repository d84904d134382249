/**
 * What a person does on the page, turned into what Slack would send the app:
 * a signed slash command or interaction POSTed to the app's request URL, with
 * trigger ids and response URLs the stand-in issued. Slack's answer to the
 * app's acknowledgement is applied too: a command's ack text shows as an
 * ephemeral message, a submission's `response_action` updates, pushes,
 * clears or keeps the modal with errors beside its fields.
 */
import { field } from './json.js';
import type { StoredMessage } from './messages.js';
import {
  appHomeOpenedBody,
  blockActionsPayload,
  blockSuggestionPayload,
  interactionBody,
  messageShortcutPayload,
  slashCommandBody,
  viewSubmissionPayload,
} from './payloads.js';
import type { Channel, Person } from './people.js';
import { postSigned, type SignedResponse } from './signing.js';
import type { SlackStandIn } from './stand-in.js';
import type { StateValues } from './view-state.js';
import type { StoredView } from './views.js';

interface CommandInput {
  user: string;
  channel: string;
  /** What was typed, e.g. `/harbor help`. */
  text: string;
  threadTs?: string;
}

interface ActionInput {
  user: string;
  actionId: string;
  blockId?: string;
  /** A button's value, or the option a select changed to. */
  value?: string;
  selectedOption?: { text: string; value: string };
  /** A message's channel and ts, or a modal's id. */
  channel?: string;
  messageTs?: string;
  ephemeral?: boolean;
  viewId?: string;
  /** The modal's inputs as the person left them (for clicks inside a modal). */
  values?: StateValues;
}

interface SuggestInput {
  user: string;
  viewId: string;
  actionId: string;
  blockId?: string;
  /** What was typed into the select so far. */
  query: string;
  /** The modal's inputs as the person left them. */
  values?: StateValues;
}

/** One option an app offered for an external select. */
export interface SuggestedOption {
  text: string;
  value: string;
}

interface SubmitInput {
  user: string;
  viewId: string;
  values: StateValues;
}

/** What the page is told after it acted: ok, or Slack's words for what went wrong. */
export type Outcome =
  | { ok: true; errors?: Record<string, string>; options?: SuggestedOption[] }
  | { ok: false; error: string };

interface InteractionsOptions {
  standIn: SlackStandIn;
  signingSecret: string;
  command: string;
  people: readonly Person[];
  channels: readonly Channel[];
  /** The app's request URL, known once the bot listens. */
  eventsUrl(): string | undefined;
  /** Field errors a submission was answered with, by view id (shown beside the fields). */
  fieldErrors: Map<string, Record<string, string>>;
}

/** The page's verbs: each sends one signed request to the app and applies Slack's side of the answer. */
export class Interactions {
  constructor(private readonly o: InteractionsOptions) {}

  /** A slash command typed into the composer (or a plain message, which only posts). */
  async command(input: CommandInput): Promise<Outcome> {
    const person = this.person(input.user);
    const channel = this.channel(input.channel);
    if (!person || !channel) return { ok: false, error: 'unknown person or channel' };
    const text = input.text.trim();
    if (!text.startsWith('/')) {
      this.o.standIn.postAsUser(channel.id, person.id, text, input.threadTs);
      return { ok: true };
    }
    const [name = '', ...rest] = text.split(/\s+/);
    if (name !== this.o.command) {
      // Slack's own words when a workspace has no such command.
      return {
        ok: false,
        error: `${name} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
      };
    }
    const body = slashCommandBody({
      command: name,
      text: text.slice(name.length).trim() || rest.join(' '),
      user_id: person.id,
      user_name: person.name,
      channel_id: channel.id,
      channel_name: channel.name,
      response_url: this.o.standIn.responseUrl({ channel: channel.id, user: person.id }),
      trigger_id: this.o.standIn.triggerId(undefined, person.id),
    });
    const sent = await this.send(body);
    if (!sent.ok) return sent;
    this.showAckText(sent.response, channel.id, person.id);
    return { ok: true };
  }

  /** A click on a button or a choice in a select, in a message or a modal. */
  async action(input: ActionInput): Promise<Outcome> {
    const person = this.person(input.user);
    if (!person) return { ok: false, error: 'unknown person' };
    const selected = input.selectedOption
      ? {
          selected_option: {
            text: { type: 'plain_text' as const, text: input.selectedOption.text },
            value: input.selectedOption.value,
          },
        }
      : undefined;
    const common = {
      actionId: input.actionId,
      ...(input.blockId ? { blockId: input.blockId } : {}),
      ...(input.value !== undefined && !selected ? { value: input.value } : {}),
      user: { id: person.id, name: person.name },
      actionTs: this.o.standIn.messageTs(),
    };
    let payload: object;
    if (input.viewId) {
      const view = this.o.standIn.view(input.viewId);
      if (!view) return { ok: false, error: 'not_found' };
      const values = { ...input.values };
      if (selected && input.blockId)
        values[input.blockId] = {
          ...values[input.blockId],
          [input.actionId]: { type: 'static_select', ...selected },
        };
      payload = blockActionsPayload({
        ...common,
        view,
        values,
        triggerId: this.o.standIn.triggerId(view.id, person.id),
        ...(selected ? { action: { ...this.actionOf(view.blocks, input), ...selected } } : {}),
      });
    } else {
      const channel = this.channel(input.channel ?? '');
      const message = this.message(input);
      if (!channel || !message) return { ok: false, error: 'message_not_found' };
      payload = blockActionsPayload({
        ...common,
        channel,
        message,
        isEphemeral: input.ephemeral === true,
        responseUrl: this.o.standIn.responseUrl({
          channel: channel.id,
          user: person.id,
          messageTs: message.ts,
          ...(message.threadTs ? { threadTs: message.threadTs } : {}),
          ...(input.ephemeral ? { ephemeral: true } : {}),
        }),
        triggerId: this.o.standIn.triggerId(undefined, person.id),
        ...(selected ? { action: { ...this.actionOf(message.blocks, input), ...selected } } : {}),
      });
    }
    const sent = await this.send(interactionBody(payload));
    return sent.ok ? { ok: true } : sent;
  }

  /**
   * Typing into an external select: Slack sends the app a signed
   * `block_suggestion` and shows the options its ack carries (flat or in groups).
   */
  async suggest(input: SuggestInput): Promise<Outcome> {
    const person = this.person(input.user);
    const view = this.o.standIn.view(input.viewId);
    if (!person || !view) return { ok: false, error: 'not_found' };
    const body = interactionBody(
      blockSuggestionPayload({
        view,
        actionId: input.actionId,
        ...(input.blockId ? { blockId: input.blockId } : {}),
        query: input.query,
        user: { id: person.id, name: person.name },
        values: input.values ?? {},
      }),
    );
    const sent = await this.send(body);
    if (!sent.ok) return sent;
    return { ok: true, options: offeredOptions(sent.response.body) };
  }

  /** A message shortcut used on a message: Slack sends the app a signed `message_action`. */
  async shortcut(input: {
    user: string;
    channel: string;
    messageTs: string;
    callbackId: string;
  }): Promise<Outcome> {
    const person = this.person(input.user);
    const channel = this.channel(input.channel);
    const message = this.o.standIn.message(input.channel, input.messageTs);
    if (!person || !channel || !message || message.deleted) return { ok: false, error: 'message_not_found' };
    const payload = messageShortcutPayload({
      callbackId: input.callbackId,
      message: {
        ts: message.ts,
        text: message.text,
        ...(message.user ? { user: message.user } : {}),
        ...(message.threadTs ? { threadTs: message.threadTs } : {}),
      },
      channel,
      user: { id: person.id, name: person.name },
      responseUrl: this.o.standIn.responseUrl({ channel: channel.id, user: person.id }),
      triggerId: this.o.standIn.triggerId(undefined, person.id),
    });
    const sent = await this.send(interactionBody(payload));
    return sent.ok ? { ok: true } : sent;
  }

  /** The person opens the app's Home tab: Slack sends the app a signed `app_home_opened` event. */
  async openHome(user: string): Promise<Outcome> {
    const person = this.person(user);
    if (!person) return { ok: false, error: 'unknown person' };
    const sent = await this.send(appHomeOpenedBody(person.id), 'application/json');
    return sent.ok ? { ok: true } : sent;
  }

  /** The modal's Submit button. */
  async submit(input: SubmitInput): Promise<Outcome> {
    const person = this.person(input.user);
    const view = this.o.standIn.view(input.viewId);
    if (!person || !view) return { ok: false, error: 'not_found' };
    const body = interactionBody(
      viewSubmissionPayload({
        view,
        values: input.values,
        user: { id: person.id, name: person.name },
        triggerId: this.o.standIn.triggerId(view.id, person.id),
      }),
    );
    const sent = await this.send(body);
    if (!sent.ok) return sent;
    return this.applySubmissionAck(view, person.id, sent.response.body);
  }

  /**
   * The modal's Close button or Esc: back to the view below, or closed. With
   * `clear` (the page was reloaded or left, as when a Slack client goes away)
   * the whole stack closes. `view_closed` goes to the app for each view that
   * asked for it (`notify_on_close`), top first; what was typed is not sent.
   */
  async close(user: string, viewId: string, clear = false): Promise<Outcome> {
    const person = this.person(user);
    const view = this.o.standIn.view(viewId);
    if (!person || !view) return { ok: false, error: 'not_found' };
    const stack = clear
      ? this.o.standIn
          .openViews(person.id)
          .filter((v) => v.root_view_id === view.root_view_id)
          .reverse()
      : [view];
    for (const closing of stack) {
      this.o.fieldErrors.delete(closing.id);
      this.o.standIn.closeView(closing.id);
    }
    for (const closing of stack.filter((v) => v.notify_on_close)) {
      const closed = viewSubmissionPayload({ view: closing, user: { id: person.id, name: person.name } });
      const { trigger_id: _t, response_urls: _r, ...rest } = closed;
      const sent = await this.send(interactionBody({ ...rest, type: 'view_closed', is_cleared: clear }));
      if (!sent.ok) return sent;
    }
    return { ok: true };
  }

  private applySubmissionAck(view: StoredView, user: string, ack: unknown): Outcome {
    const answer = (ack && typeof ack === 'object' ? ack : {}) as {
      response_action?: string;
      errors?: Record<string, string>;
      view?: Record<string, unknown>;
    };
    this.o.fieldErrors.delete(view.id);
    switch (answer.response_action) {
      case 'errors': {
        const errors = answer.errors ?? {};
        this.o.fieldErrors.set(view.id, errors);
        this.o.standIn.touch();
        return { ok: true, errors };
      }
      case 'update':
        return this.viewAnswer(this.o.standIn.updateView(view.id, answer.view));
      case 'push':
        return this.viewAnswer(this.o.standIn.pushView(view.id, user, answer.view));
      case 'clear':
        for (const open of this.o.standIn.openViews(user)) this.o.standIn.closeView(open.id);
        return { ok: true };
      default:
        // An empty acknowledgement closes the submitted view (and the stack under it, as Slack does).
        for (const open of this.o.standIn.openViews(user)) {
          if (open.root_view_id === view.root_view_id) this.o.standIn.closeView(open.id);
        }
        return { ok: true };
    }
  }

  private viewAnswer(result: StoredView | string): Outcome {
    return typeof result === 'string' ? { ok: false, error: result } : { ok: true };
  }

  // A slash command's ack body is shown to the person as an ephemeral message, as Slack does.
  private showAckText(response: SignedResponse, channel: string, user: string): void {
    const body = response.body;
    if (body === '' || body === undefined || body === null) return;
    const message =
      typeof body === 'string' ? { text: body } : (body as { text?: string; blocks?: unknown[] });
    this.o.standIn.ephemeralFromAck(channel, user, {
      text: message.text ?? '',
      blocks: message.blocks ?? [],
    });
  }

  private async send(
    body: string,
    contentType?: string,
  ): Promise<{ ok: true; response: SignedResponse } | { ok: false; error: string }> {
    const url = this.o.eventsUrl();
    if (!url) return { ok: false, error: 'the app is not listening yet' };
    try {
      const response = await postSigned(url, this.o.signingSecret, body, contentType ? { contentType } : {});
      // Slack treats anything but a 200 within 3 seconds as a failed delivery and tells the person so.
      if (response.status !== 200) return { ok: false, error: `the app answered HTTP ${response.status}` };
      return { ok: true, response };
    } catch {
      return { ok: false, error: 'the app did not respond (is it running?)' };
    }
  }

  private actionOf(blocks: readonly unknown[], input: ActionInput): Record<string, unknown> {
    for (const block of blocks) {
      const listed = field(block, 'elements');
      const elements: unknown[] = [
        ...(Array.isArray(listed) ? listed : []),
        field(block, 'accessory'),
        field(block, 'element'),
      ];
      const element = elements.find((e) => Boolean(e) && field(e, 'action_id') === input.actionId);
      if (element) {
        return {
          type: field(element, 'type'),
          action_id: input.actionId,
          block_id: field(block, 'block_id') ?? input.blockId,
          action_ts: this.o.standIn.messageTs(),
        };
      }
    }
    return {
      type: 'static_select',
      action_id: input.actionId,
      block_id: input.blockId,
      action_ts: this.o.standIn.messageTs(),
    };
  }

  private message(
    input: ActionInput,
  ): StoredMessage | { ts: string; text: string; blocks: unknown[]; threadTs?: string } | undefined {
    if (!input.messageTs) return undefined;
    if (input.ephemeral) {
      const ephemeral = this.o.standIn
        .ephemerals()
        .find((e) => e.messageTs === input.messageTs && !e.deleted);
      return ephemeral
        ? {
            ts: ephemeral.messageTs,
            text: ephemeral.text,
            blocks: ephemeral.blocks,
            ...(ephemeral.threadTs ? { threadTs: ephemeral.threadTs } : {}),
          }
        : undefined;
    }
    const message = this.o.standIn.message(input.channel ?? '', input.messageTs);
    return message && !message.deleted ? message : undefined;
  }

  private person(id: string): Person | undefined {
    return this.o.people.find((p) => p.id === id);
  }

  private channel(id: string): Channel | undefined {
    return this.o.channels.find((c) => c.id === id);
  }
}

/** The options in an options ack: `options`, or every group's in `option_groups`. */
function offeredOptions(ack: unknown): SuggestedOption[] {
  const flat = field(ack, 'options');
  const groups = field(ack, 'option_groups');
  const listed: unknown[] = Array.isArray(flat)
    ? flat
    : Array.isArray(groups)
      ? groups.flatMap((g) => {
          const inGroup = field(g, 'options');
          return Array.isArray(inGroup) ? inGroup : [];
        })
      : [];
  return listed.flatMap((o) => {
    const value = field(o, 'value');
    const text = field(field(o, 'text'), 'text');
    return typeof value === 'string' ? [{ value, text: typeof text === 'string' ? text : value }] : [];
  });
}
