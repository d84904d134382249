/**
 * Slack's Socket Mode side of the stand-in: `apps.connections.open` hands an
 * app a one-time `ws://127.0.0.1:<port>/socket-mode/<ticket>` URL; the
 * WebSocket there greets with `hello`, carries envelopes
 * `{ envelope_id, type, payload, accepts_response_payload }` to the app and
 * takes its acks `{ envelope_id, payload }` back. Envelopes are spread over
 * the app's open connections in turn, as Slack spreads them over up to 10,
 * so an app running as several replicas sees its traffic shared out.
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { acceptWebSocket, type WebSocketPeer } from './websocket.js';

/** What Slack sends over Socket Mode. */
export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/** One envelope's ack, as the app sent it. */
export interface EnvelopeAck {
  envelopeId: string;
  /** The ack's `payload` (a command's answer, a submission's `response_action`), `{}` when bare. */
  payload: unknown;
  /** Which connection carried the envelope (its number, counting from 1 in the order they opened). */
  connection: number;
  /** From the envelope's send to its ack's arrival (performance clock, ms). */
  latencyMs: number;
}

/** An envelope to send: its type and payload (the stand-in adds the id). */
export interface Outgoing {
  type: EnvelopeType;
  payload: unknown;
}

export interface DeliverOptions {
  /** Only the connections opened with this app-level token (several apps on one stand-in). */
  appToken?: string;
}

export interface SocketModeStandIn {
  /** Open connections (greeted, not closed), of one app or all. */
  connections(appToken?: string): number;
  /** Resolves once at least `count` connections are open. */
  waitForConnections(count: number, appToken?: string): Promise<void>;
  /** Sends an envelope on the app's next connection in turn; resolves with its ack. */
  deliver(type: EnvelopeType, payload: unknown, options?: DeliverOptions): Promise<EnvelopeAck>;
  /** Sends the envelopes at once (each connection's share in one write); resolves each with its ack, in order. */
  deliverAll(envelopes: readonly Outgoing[], options?: DeliverOptions): Promise<EnvelopeAck>[];
  /** Every ack received, oldest first. */
  readonly acks: readonly EnvelopeAck[];
}

/** The stand-in's side of Socket Mode: wired into its HTTP server by stand-in.ts. */
export interface SocketModeServer extends SocketModeStandIn {
  /** `apps.connections.open`: a fresh URL for the app whose token this is. */
  open(appToken: string): string;
  /** The HTTP server's `upgrade` event; false when the path is not a Socket Mode ticket. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Closes every connection; deliveries still waiting for an ack reject. */
  close(): void;
}

interface Connection {
  number: number;
  appToken: string;
  peer: WebSocketPeer;
}

interface Waiting {
  connection: number;
  sentAt: number;
  resolve(ack: EnvelopeAck): void;
  reject(error: Error): void;
}

const PATH = /^\/socket-mode\/(\w+)$/;

/** A Socket Mode server whose URLs start with `baseUrl` (`ws://127.0.0.1:<port>`). */
export function socketModeServer(baseUrl: () => string): SocketModeServer {
  const tickets = new Map<string, string>();
  const connections: Connection[] = [];
  const waiting = new Map<string, Waiting>();
  const acks: EnvelopeAck[] = [];
  const watchers = new Set<() => void>();
  const turn = new Map<string, number>();
  let opened = 0;
  let issued = 0;
  let envelopes = 0;

  const changed = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const live = (appToken?: string) =>
    connections.filter((c) => c.peer.open && (appToken === undefined || c.appToken === appToken));

  const received = (connection: Connection, text: string) => {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.envelope_id !== 'string') return;
    const w = waiting.get(message.envelope_id);
    if (!w) return;
    waiting.delete(message.envelope_id);
    const ack: EnvelopeAck = {
      envelopeId: message.envelope_id,
      payload: message.payload ?? {},
      connection: connection.number,
      latencyMs: performance.now() - w.sentAt,
    };
    acks.push(ack);
    w.resolve(ack);
  };

  const dropped = (connection: Connection) => {
    const at = connections.indexOf(connection);
    if (at >= 0) connections.splice(at, 1);
    // Slack would send these again on another connection; the stand-in tells the test instead.
    for (const [id, w] of waiting) {
      if (w.connection !== connection.number) continue;
      waiting.delete(id);
      w.reject(new Error(`connection ${connection.number} closed before envelope ${id} was acked`));
    }
    changed();
  };

  /**
   * Shares the envelopes out over the app's connections in turn, then writes
   * each connection's share in one write. Every envelope is timed from just
   * before the writes: the measure is the app's, not how long the stand-in
   * took to build or send the rest of the burst.
   */
  const deliverAll = (batch: readonly Outgoing[], options: DeliverOptions = {}): Promise<EnvelopeAck>[] => {
    const candidates = live(options.appToken);
    if (candidates.length === 0)
      return batch.map(() => Promise.reject(new Error('no Socket Mode connection is open')));
    const key = options.appToken ?? '';
    const sends: { id: string; connection: Connection; text: string }[] = [];
    for (const { type, payload } of batch) {
      const next = turn.get(key) ?? 0;
      turn.set(key, next + 1);
      const connection = candidates[next % candidates.length] as Connection;
      envelopes += 1;
      const id = `env-${envelopes}`;
      const text = JSON.stringify({
        envelope_id: id,
        type,
        payload,
        // Slack takes an answer in the ack for commands and interactions, not for events.
        accepts_response_payload: type !== 'events_api',
        ...(type === 'events_api' ? { retry_attempt: 0, retry_reason: '' } : {}),
      });
      sends.push({ id, connection, text });
    }
    const sentAt = performance.now();
    const acked = sends.map(
      ({ id, connection }) =>
        new Promise<EnvelopeAck>((resolve, reject) => {
          waiting.set(id, { connection: connection.number, sentAt, resolve, reject });
        }),
    );
    for (const connection of candidates) {
      const share = sends.filter((s) => s.connection === connection).map((s) => s.text);
      if (share.length > 0) connection.peer.sendAll(share);
    }
    return acked;
  };

  return {
    acks,
    open: (appToken) => {
      issued += 1;
      const ticket = `t${issued}`;
      tickets.set(ticket, appToken);
      return `${baseUrl()}/socket-mode/${ticket}`;
    },
    upgrade: (req, socket, head) => {
      const ticket = PATH.exec(new URL(req.url ?? '/', 'ws://stand-in').pathname)?.[1];
      if (!ticket) return false;
      const appToken = tickets.get(ticket);
      // A URL serves one connection, as Slack's do.
      tickets.delete(ticket);
      if (appToken === undefined) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return true;
      }
      opened += 1;
      const number = opened;
      let connection: Connection | undefined;
      const peer = acceptWebSocket(req, socket, head, {
        message: (text) => {
          if (connection) received(connection, text);
        },
        closed: () => {
          if (connection) dropped(connection);
        },
      });
      if (!peer) return true;
      connection = { number, appToken, peer };
      connections.push(connection);
      peer.send(JSON.stringify({ type: 'hello', num_connections: live(appToken).length, debug_info: {} }));
      changed();
      return true;
    },
    connections: (appToken) => live(appToken).length,
    waitForConnections: (count, appToken) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (live(appToken).length < count) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      }),
    deliver: (type, payload, options = {}) =>
      deliverAll([{ type, payload }], options)[0] as Promise<EnvelopeAck>,
    deliverAll,
    close: () => {
      watchers.clear();
      for (const c of [...connections]) c.peer.close(true);
    },
  };
}
