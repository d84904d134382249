/**
 * The Socket Mode client's dispatcher (Bolt's `dispatcher` option, which
 * reaches undici's WebSocket): the acks written while one chunk of the socket
 * is read leave in one write.
 *
 * A burst of envelopes arrives in chunks of many frames, and the bot acks each
 * one as it reads it (first-ack.ts). undici's WebSocket writes every frame on
 * its own, so each ack costs a pass through the stream and a system call
 * before the next envelope of the chunk is read, and the last envelope's ack
 * waits for all of them. Here the WebSocket's socket is corked while a chunk
 * is read and uncorked on the next tick, so that chunk's acks go out in one
 * write (the stream's writev): an ack waits at most for the rest of its chunk
 * to be read, and Slack gets fewer, fuller packets. Writes that are not
 * replies to a read (pings, the closing handshake) are not held.
 *
 * Otherwise this is the library's own default (SlackWebSocket builds an Agent
 * on HTTP/1.1 whose connect hook keeps the socket), including what that hook
 * is for: undici's WebSocket hides its socket and leaves it open when a peer
 * never answers the closing handshake, so once the client has given a
 * connection up (`closed`) its socket is destroyed.
 */
import { channel } from 'node:diagnostics_channel';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Agent, buildConnector, type WebSocket } from 'undici';

/** undici publishes every WebSocket it opens here (with the local address of its socket). */
const OPENED = channel('undici:websocket:open');

export interface AcksTogether {
  /** For the SocketModeReceiver's `dispatcher` option. */
  readonly dispatcher: Agent;
  /** The client gave a connection up (its `close` event): destroys the sockets of WebSockets no longer open. */
  closed(): void;
  /** Stops watching for WebSockets and destroys the dispatcher (the client has stopped). */
  close(): Promise<void>;
}

/**
 * Corks `socket` while each chunk it reads is handled, so what is written in
 * reply (synchronously, as undici's WebSocket dispatches every frame of the
 * chunk) leaves in one write on the next tick. Must run before the socket's
 * own reader, hence prepended.
 */
function repliesInOneWrite(socket: Duplex): void {
  socket.prependListener('data', () => {
    socket.cork();
    process.nextTick(() => socket.uncork());
  });
}

/**
 * The dispatcher for one Socket Mode client. `connect` opens each socket
 * (default: undici's own connector, on HTTP/1.1 so the WebSocket keeps a
 * socket of its own, as the library's default does).
 */
export function acksTogether({
  connect = buildConnector({ allowH2: false }),
}: {
  connect?: buildConnector.connector;
} = {}): AcksTogether {
  /** Sockets this dispatcher opened and that are still open: the API calls' and the WebSockets'. */
  const sockets = new Set<Socket>();
  const websockets = new Map<Socket, WebSocket>();
  const opened = (message: unknown) => {
    const { address, websocket } = message as { address?: AddressInfo; websocket?: WebSocket };
    // The channel carries every WebSocket of the process; this dispatcher's is the one on a socket it opened.
    const socket = [...sockets].find((s) => sameAddress(s.address(), address));
    if (!socket || !websocket || websockets.has(socket)) return;
    websockets.set(socket, websocket);
    repliesInOneWrite(socket);
  };
  OPENED.subscribe(opened);
  const dispatcher = new Agent({
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (!socket) {
          callback(error ?? new Error('Socket Mode connector returned no socket'), null);
          return;
        }
        sockets.add(socket);
        socket.once('close', () => {
          sockets.delete(socket);
          websockets.delete(socket);
        });
        callback(null, socket);
      }),
  });
  return {
    dispatcher,
    closed: () => {
      for (const [socket, websocket] of websockets)
        if (websocket.readyState === websocket.CLOSING || websocket.readyState === websocket.CLOSED)
          socket.destroy();
    },
    close: async () => {
      OPENED.unsubscribe(opened);
      // Not the WebSockets' sockets: the client's closing handshake ends those (a socket destroyed under
      // it leaves the client's handshake timer running), and `closed` destroys any whose peer never answers.
      await dispatcher.destroy();
    },
  };
}

function sameAddress(a: AddressInfo | object, b: AddressInfo | undefined): boolean {
  return (
    b !== undefined && 'port' in a && a.port === b.port && a.address === b.address && a.family === b.family
  );
}
