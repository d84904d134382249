/**
 * The channel history the stand-in keeps, so tests can read back what the
 * bot shows people: the latest version of each message after its updates,
 * and the replies in a thread. Timestamps are unique and increasing, shaped
 * like Slack's ("1700000000.000100"), and follow the stand-in's clock.
 */
import type { StandInClock } from './rate-limits.js';

export interface MessageVersion {
  text: string;
  blocks: unknown[];
  attachments?: unknown;
  metadata?: unknown;
}

export interface StoredMessage extends MessageVersion {
  channel: string;
  ts: string;
  /** The parent's ts when this is a thread reply. */
  threadTs?: string;
  /** Posted by this user id (the bot user for API posts). */
  user: string;
  /** Earlier versions, oldest first (one per chat.update or replace_original). */
  history: MessageVersion[];
  deleted: boolean;
}

export interface EphemeralMessage extends MessageVersion {
  channel: string;
  user: string;
  messageTs: string;
  threadTs?: string;
  /** Set when a response URL deleted it (`delete_original` on an ephemeral message). */
  deleted?: boolean;
  /** Earlier versions, oldest first, when a response URL replaced it (`replace_original`). */
  replaced?: MessageVersion[];
}

/** Messages by channel and ts, plus the ephemerals (which Slack never lets anyone read back). */
export class MessageStore {
  private messages = new Map<string, StoredMessage>();
  readonly ephemerals: EphemeralMessage[] = [];
  private lastMicros = 0;

  constructor(private readonly clock: StandInClock) {}

  /** A fresh ts: the clock's time in microseconds, bumped past the previous one. */
  nextTs(): string {
    const micros = Math.max(Math.floor(this.clock.now()) * 1000, this.lastMicros + 100);
    this.lastMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  /** Stores a new message and returns it. */
  post(channel: string, user: string, version: MessageVersion, threadTs?: string): StoredMessage {
    const message: StoredMessage = {
      channel,
      ts: this.nextTs(),
      user,
      ...version,
      history: [],
      deleted: false,
      ...(threadTs ? { threadTs } : {}),
    };
    this.messages.set(key(channel, message.ts), message);
    return message;
  }

  /** The message, including deleted ones (flagged), or undefined if never posted. */
  get(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.get(key(channel, ts));
  }

  /** Replaces a live message's content, keeping the old version in history; undefined if absent. */
  update(channel: string, ts: string, next: Partial<MessageVersion>): StoredMessage | undefined {
    const message = this.live(channel, ts);
    if (!message) return undefined;
    const { channel: _c, ts: _t, threadTs: _p, user: _u, history, deleted: _d, ...current } = message;
    history.push(current);
    // Slack keeps fields the update leaves out (blocks, attachments); an empty array clears them.
    if (next.text !== undefined) message.text = next.text;
    if (next.blocks !== undefined) message.blocks = next.blocks;
    if (next.attachments !== undefined) message.attachments = next.attachments;
    if (next.metadata !== undefined) message.metadata = next.metadata;
    return message;
  }

  /** Marks a live message deleted; false if it was not there. */
  delete(channel: string, ts: string): boolean {
    const message = this.live(channel, ts);
    if (!message) return false;
    message.deleted = true;
    return true;
  }

  /** Live replies in a thread, oldest first (the parent itself is not included). */
  thread(channel: string, threadTs: string): StoredMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.channel === channel && m.threadTs === threadTs && m.ts !== threadTs && !m.deleted)
      .sort((a, b) => compareTs(a.ts, b.ts));
  }

  /** Live top-level messages and replies in a channel, oldest first. */
  channel(channel: string): StoredMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.channel === channel && !m.deleted)
      .sort((a, b) => compareTs(a.ts, b.ts));
  }

  /** Records an ephemeral message (visible to one user, never stored as history). */
  postEphemeral(channel: string, user: string, version: MessageVersion, threadTs?: string): EphemeralMessage {
    const ephemeral: EphemeralMessage = {
      channel,
      user,
      messageTs: this.nextTs(),
      ...version,
      ...(threadTs ? { threadTs } : {}),
    };
    this.ephemerals.push(ephemeral);
    return ephemeral;
  }

  /** Takes an ephemeral away (a slash command's response_url delete_original): the user no longer sees it. */
  removeEphemeral(ephemeral: EphemeralMessage): void {
    ephemeral.deleted = true;
  }

  /**
   * Replaces an ephemeral message (`replace_original`, from a click on it or
   * through the slash command's URL that posted it) with a new object in the
   * same place, keeping the old versions in `replaced`, so a test holding the
   * old one still sees what was clicked; returns the new one, undefined if unknown.
   */
  replaceEphemeral(messageTs: string, version: MessageVersion): EphemeralMessage | undefined {
    const i = this.ephemerals.findIndex((e) => e.messageTs === messageTs && !e.deleted);
    const old = this.ephemerals[i];
    if (!old) return undefined;
    const { channel, user, messageTs: ts, threadTs, replaced, deleted: _deleted, ...before } = old;
    const next: EphemeralMessage = {
      channel,
      user,
      messageTs: ts,
      ...(threadTs ? { threadTs } : {}),
      ...version,
      replaced: [...(replaced ?? []), before],
    };
    this.ephemerals[i] = next;
    return next;
  }

  /** Removes an ephemeral message from view (`delete_original`); false if unknown. */
  deleteEphemeral(messageTs: string): boolean {
    const ephemeral = this.ephemerals.find((e) => e.messageTs === messageTs && !e.deleted);
    if (!ephemeral) return false;
    ephemeral.deleted = true;
    return true;
  }

  private live(channel: string, ts: string): StoredMessage | undefined {
    const message = this.messages.get(key(channel, ts));
    return message && !message.deleted ? message : undefined;
  }
}

function key(channel: string, ts: string): string {
  return `${channel}/${ts}`;
}

/** Orders Slack timestamps numerically (string order breaks when the seconds grow a digit). */
function compareTs(a: string, b: string): number {
  const [as = '0', af = '0'] = a.split('.');
  const [bs = '0', bf = '0'] = b.split('.');
  return Number(as) - Number(bs) || Number(af) - Number(bf);
}
