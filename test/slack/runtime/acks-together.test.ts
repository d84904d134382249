/**
 * Issue 40 (Socket Mode acks at or below bare Bolt): the acks written while
 * one chunk of the WebSocket is read leave in one write, not one write each
 * (acks-together.ts). A real undici WebSocket, through the dispatcher, to the
 * stand-in's WebSocket server over loopback; the connector records the
 * sockets it opens so the test can see what is held for the write. And, as
 * the library's own dispatcher does, the socket of a connection given up on
 * is destroyed even when the peer never answers the closing handshake.
 */

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, it } from '@jest/globals';
import { Agent, buildConnector, WebSocket } from 'undici';
import { type AcksTogether, acksTogether } from '../../../src/slack/runtime/acks-together.js';
import { acceptWebSocket, type WebSocketPeer } from '../../../src/workspace/websocket.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A connector that opens sockets as undici's does and keeps them for the test to look at. */
function recordingConnector() {
  const opened: Socket[] = [];
  const base = buildConnector({ allowH2: false });
  const connect: buildConnector.connector = (options, callback) =>
    base(options, (error, socket) => {
      if (socket) opened.push(socket);
      (callback as (error: Error | null, socket: Socket | null) => void)(error, socket);
    });
  return { connect, opened };
}

/** A WebSocket server whose peers answer each "go" with `burst` messages written in one turn. */
async function server(burst: string[], { answerClose = true } = {}) {
  const received: string[] = [];
  const http: Server = createServer();
  const raw: Socket[] = [];
  http.on('upgrade', (req, socket: Socket, head) => {
    raw.push(socket);
    if (!answerClose) {
      // A peer that completes the handshake and then never reads or answers again.
      acceptWebSocket(req, socket, head, { message: () => {}, closed: () => {} });
      socket.removeAllListeners('data');
      return;
    }
    const peer: WebSocketPeer | undefined = acceptWebSocket(req, socket, head, {
      message: (text) => {
        received.push(text);
        if (text === 'go') for (const message of burst) peer?.send(message);
      },
      closed: () => {},
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  cleanups.push(async () => {
    for (const socket of raw) socket.destroy();
    await new Promise((resolve) => http.close(resolve));
  });
  return { url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`, received };
}

async function openSocket(url: string, dispatcher: Agent) {
  const ws = new WebSocket(url, { dispatcher });
  await once(ws as unknown as EventTarget, 'open');
  cleanups.push(() => ws.close());
  return ws;
}

/** Answers every message with an ack, noting how the socket stood right after each ack was sent. */
function ackEach(ws: WebSocket, socket: () => Socket | undefined) {
  const held: { corked: number; buffered: number }[] = [];
  ws.addEventListener('message', (event) => {
    ws.send(`ack ${String(event.data)}`);
    const s = socket();
    held.push({ corked: s?.writableCorked ?? -1, buffered: s?.writableLength ?? -1 });
  });
  return held;
}

const BURST = ['e1', 'e2', 'e3', 'e4', 'e5'];

/** Loopback I/O, not time: each turn lets the sockets move; a broken path fails on jest's timeout. */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

it('holds the acks written while a chunk is read and sends them together once it is read', async () => {
  const { url, received } = await server(BURST);
  const { connect, opened } = recordingConnector();
  const together: AcksTogether = acksTogether({ connect });
  cleanups.push(() => together.close());
  const ws = await openSocket(url, together.dispatcher);
  const held = ackEach(ws, () => opened.at(-1));
  ws.send('go');
  await until(() => received.length === 1 + BURST.length);

  expect(received.slice(1)).toEqual(BURST.map((id) => `ack ${id}`));
  // Every ack was still held when the next envelope was read: none was written on its own.
  expect(held).toHaveLength(BURST.length);
  for (const { corked, buffered } of held) {
    expect(corked).toBeGreaterThan(0);
    expect(buffered).toBeGreaterThan(0);
  }
  expect(opened.at(-1)?.writableCorked).toBe(0);
  expect(opened.at(-1)?.writableLength).toBe(0);
});

it('is what the Socket Mode client would otherwise lack: its default dispatcher writes every ack at once', async () => {
  // The same exchange through a plain Agent (the library's default, less its socket hook).
  const { url, received } = await server(BURST);
  const { connect, opened } = recordingConnector();
  const plain = new Agent({ connect });
  cleanups.push(() => plain.close());
  const ws = await openSocket(url, plain);
  const held = ackEach(ws, () => opened.at(-1));
  ws.send('go');
  await until(() => received.length === 1 + BURST.length);
  expect(held.map((h) => h.corked)).toEqual(BURST.map(() => 0));
});

it('does not hold what is not a reply to a read (the first message, pings, the closing handshake)', async () => {
  const { url, received } = await server([]);
  const { connect, opened } = recordingConnector();
  const together = acksTogether({ connect });
  cleanups.push(() => together.close());
  const ws = await openSocket(url, together.dispatcher);
  ws.send('go');
  expect(opened.at(-1)?.writableCorked).toBe(0);
  await until(() => received.length === 1);
});

it('destroys the socket of a connection given up on whose peer never answered the closing handshake', async () => {
  const { url } = await server([], { answerClose: false });
  const { connect, opened } = recordingConnector();
  const together = acksTogether({ connect });
  cleanups.push(() => together.close());
  const ws = await openSocket(url, together.dispatcher);
  const socket = opened.at(-1);
  ws.close(1000);
  expect(ws.readyState).toBe(ws.CLOSING);
  // The client gives the connection up (its close handshake timed out): what it emits as `close`.
  together.closed();
  await once(ws as unknown as EventTarget, 'close');
  expect(socket?.destroyed).toBe(true);
});

it('leaves an open connection alone when another one is given up', async () => {
  const { url } = await server([]);
  const { connect, opened } = recordingConnector();
  const together = acksTogether({ connect });
  cleanups.push(() => together.close());
  await openSocket(url, together.dispatcher);
  together.closed();
  expect(opened.at(-1)?.destroyed).toBe(false);
});
