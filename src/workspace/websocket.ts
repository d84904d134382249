/**
 * The server end of a WebSocket (RFC 6455), just enough for Slack's Socket
 * Mode: the opening handshake on an HTTP upgrade, text frames both ways,
 * pongs for the client's pings (the Socket Mode client drops a connection
 * whose pings go unanswered) and the closing handshake. Written here rather
 * than taken from a package because the stand-in needs no more than this,
 * and the project has no WebSocket server among its dependencies.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** One accepted WebSocket connection. */
export interface WebSocketPeer {
  /** Sends one text message; does nothing once closing. */
  send(text: string): void;
  /** Sends the messages in one write, as a burst Slack has ready goes out at once; does nothing once closing. */
  sendAll(texts: readonly string[]): void;
  /** Starts the closing handshake (the socket ends when the client answers, or at once when `force`). */
  close(force?: boolean): void;
  /** Whether the connection still carries messages. */
  readonly open: boolean;
}

interface PeerHandlers {
  message(text: string): void;
  closed(): void;
}

/**
 * Answers an upgrade request with the handshake and returns the connection,
 * or refuses it (400) and returns undefined when it is not a WebSocket
 * request. The reply agrees to no extension, so frames are never compressed.
 */
export function acceptWebSocket(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  handlers: PeerHandlers,
): WebSocketPeer | undefined {
  const key = req.headers['sec-websocket-key'];
  if (req.headers.upgrade?.toLowerCase() !== 'websocket' || typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return undefined;
  }
  const accept = createHash('sha1')
    .update(key + HANDSHAKE_GUID)
    .digest('base64');
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  let open = true;
  let closeSent = false;
  let ended = false;
  let buffered = head;
  let fragments: Buffer[] = [];

  const end = () => {
    if (ended) return;
    ended = true;
    open = false;
    handlers.closed();
  };
  const sendClose = (payload: Buffer) => {
    if (closeSent) return;
    closeSent = true;
    open = false;
    socket.write(frame(OP.close, payload));
  };

  const onFrame = (opcode: number, fin: boolean, payload: Buffer) => {
    if (opcode === OP.ping) return void socket.write(frame(OP.pong, payload));
    if (opcode === OP.pong) return;
    if (opcode === OP.close) {
      // The client's close (or its answer to ours): echo its code, then the TCP connection ends.
      sendClose(payload.subarray(0, 2));
      socket.end();
      return;
    }
    fragments.push(payload);
    if (!fin) return;
    const whole = Buffer.concat(fragments);
    fragments = [];
    // Socket Mode sends JSON as text; a binary message is read as UTF-8 all the same.
    if (open) handlers.message(whole.toString('utf8'));
  };

  const read = () => {
    for (;;) {
      const parsed = parseFrame(buffered);
      if (!parsed) return;
      buffered = buffered.subarray(parsed.size);
      onFrame(parsed.opcode, parsed.fin, parsed.payload);
    }
  };

  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    read();
  });
  socket.on('close', end);
  socket.on('error', () => socket.destroy());
  if (buffered.length) read();

  return {
    get open() {
      return open;
    },
    send: (text) => {
      if (open) socket.write(textFrame(text));
    },
    sendAll: (texts) => {
      if (open) socket.write(Buffer.concat(texts.map(textFrame)));
    },
    close: (force = false) => {
      sendClose(Buffer.from([0x03, 0xe8])); // 1000: normal closure
      if (force) socket.destroy();
    },
  };
}

/** A text message's frame. */
function textFrame(text: string): Buffer {
  return frame(OP.text, Buffer.from(text, 'utf8'));
}

/** An unmasked frame (servers never mask), the whole message in one. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  let header: Buffer;
  if (length < 126) {
    header = Buffer.from([0x80 | opcode, length]);
  } else if (length < 0x10000) {
    header = Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** The first complete frame in `data` (client frames are masked), or undefined while it is incomplete. */
function parseFrame(
  data: Buffer,
): { opcode: number; fin: boolean; payload: Buffer; size: number } | undefined {
  if (data.length < 2) return undefined;
  const first = data[0] ?? 0;
  const second = data[1] ?? 0;
  const masked = (second & 0x80) !== 0;
  let length = second & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return undefined;
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (data.length < 10) return undefined;
    length = Number(data.readBigUInt64BE(2));
    offset = 10;
  }
  const maskAt = offset;
  if (masked) offset += 4;
  if (data.length < offset + length) return undefined;
  const payload = Buffer.from(data.subarray(offset, offset + length));
  if (masked)
    for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (data[maskAt + (i % 4)] ?? 0);
  return { opcode: first & 0x0f, fin: (first & 0x80) !== 0, payload, size: offset + length };
}
