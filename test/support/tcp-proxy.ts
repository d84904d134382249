/**
 * A TCP proxy for fault tests: it forwards bytes between clients and a real
 * server (PostgreSQL) until told to `stall` (it keeps every connection open
 * but forwards nothing more, as a hung server or a black-holed network
 * does) or to `cut` (it resets every connection and refuses new ones).
 * `heal` forwards again for new connections.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `host:port` clients should connect to. */
  port: number;
  /** Forwards nothing more, in either direction, on any connection (new ones are accepted and held). */
  stall(): void;
  /** Resets every open connection and refuses new ones. */
  cut(): void;
  /** Forwards again (connections held while stalled stay stalled). */
  heal(): void;
  /** How many client connections are open now. */
  readonly open: number;
  close(): Promise<void>;
}

type Mode = 'forward' | 'stall' | 'cut';

/** Starts a proxy on a free loopback port in front of `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  const pairs = new Set<{ client: Socket; upstream: Socket; stalled: boolean }>();
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    const pair = { client, upstream, stalled: mode === 'stall' };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!pair.stalled) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    stall: () => {
      mode = 'stall';
      for (const pair of pairs) pair.stalled = true;
    },
    cut: () => {
      mode = 'cut';
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      }
      pairs.clear();
    },
    heal: () => {
      mode = 'forward';
    },
    get open() {
      return pairs.size;
    },
    close: async () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
