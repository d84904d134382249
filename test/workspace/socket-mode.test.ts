/**
 * The Slack stand-in's Socket Mode server, from the client's side: Node's own
 * WebSocket client (undici's, the one Slack's Socket Mode client uses) over
 * loopback. Only an app-level token gets a URL, a URL serves one connection,
 * every connection is greeted with `hello`, envelopes go to an app's
 * connections in turn and resolve with their acks, and a connection lost
 * before its ack makes the delivery fail.
 */
import { afterEach, expect, it } from '@jest/globals';
import { TEST_BOT } from '../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';

const APP_TOKEN = 'xapp-1-A0TEST-1-socket';

let standIn: SlackStandIn | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await standIn?.stop();
  standIn = undefined;
});

async function openConnection(slack: SlackStandIn, token: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${slack.apiUrl}apps.connections.open`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
  });
  return (await res.json()) as Record<string, unknown>;
}

interface Client {
  socket: WebSocket;
  /** Messages received, parsed, oldest first. */
  received: Record<string, unknown>[];
  /** Resolves with the next message received. */
  next(): Promise<Record<string, unknown>>;
  closed: Promise<void>;
}

function connect(url: string): Client {
  const socket = new WebSocket(url);
  sockets.push(socket);
  const received: Record<string, unknown>[] = [];
  let waiter: ((m: Record<string, unknown>) => void) | undefined;
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Record<string, unknown>;
    received.push(message);
    const w = waiter;
    waiter = undefined;
    w?.(message);
  });
  const closed = new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()));
  return {
    socket,
    received,
    next: () => new Promise((resolve) => (waiter = resolve)),
    closed,
  };
}

it('hands URLs only to app-level tokens', async () => {
  const slack = await startSlackStandIn({ token: TEST_BOT.token });
  standIn = slack;
  expect(await openConnection(slack, TEST_BOT.token)).toEqual({ ok: false, error: 'not_allowed_token_type' });
  const opened = await openConnection(slack, APP_TOKEN);
  expect(opened.ok).toBe(true);
  expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket-mode\/\w+$/);
});

/** A stand-in with `count` connections of the app open, each greeted with `hello`. */
async function greetedClients(count: number): Promise<{ slack: SlackStandIn; clients: Client[] }> {
  const slack = await startSlackStandIn({ token: TEST_BOT.token });
  standIn = slack;
  const clients: Client[] = [];
  for (let i = 0; i < count; i++) {
    const client = connect(String((await openConnection(slack, APP_TOKEN)).url));
    expect((await client.next()).type).toBe('hello');
    clients.push(client);
  }
  await slack.socketMode.waitForConnections(count, APP_TOKEN);
  return { slack, clients };
}

it('greets each connection, spreads envelopes over them in turn and resolves each with its ack', async () => {
  const { slack, clients } = await greetedClients(2);
  expect(slack.socketMode.connections('xapp-1-another-app')).toBe(0);

  // Each client acks what it receives, with a payload naming itself.
  clients.forEach((client, i) => {
    client.socket.addEventListener('message', (event) => {
      const envelope = JSON.parse(String(event.data)) as { envelope_id?: string };
      if (envelope.envelope_id) {
        client.socket.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { by: i } }));
      }
    });
  });
  const acks = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      slack.socketMode.deliver('slash_commands', { text: `n${n}` }, { appToken: APP_TOKEN }),
    ),
  );
  expect(acks.map((a) => a.payload)).toEqual([{ by: 0 }, { by: 1 }, { by: 0 }, { by: 1 }]);
  expect(new Set(acks.map((a) => a.envelopeId)).size).toBe(4);
  const envelope = clients[0]?.received[1];
  expect(envelope).toMatchObject({
    type: 'slash_commands',
    payload: { text: 'n1' },
    accepts_response_payload: true,
  });
  expect(slack.socketMode.acks).toHaveLength(4);
});

it('serves a URL once, and fails a delivery whose connection closes before the ack', async () => {
  const slack = await startSlackStandIn({ token: TEST_BOT.token });
  standIn = slack;
  const url = String((await openConnection(slack, APP_TOKEN)).url);
  const client = connect(url);
  await client.next();
  const again = connect(url);
  await again.closed;
  expect(slack.socketMode.connections(APP_TOKEN)).toBe(1);

  const delivery = slack.socketMode.deliver(
    'interactive',
    { type: 'block_actions' },
    { appToken: APP_TOKEN },
  );
  await client.next();
  client.socket.close();
  await expect(delivery).rejects.toThrow(/closed before envelope env-1 was acked/);
  await expect(slack.socketMode.deliver('interactive', {}, { appToken: APP_TOKEN })).rejects.toThrow(
    /no Socket Mode connection is open/,
  );
});

it('sends a burst at once: each connection its share, in order, each resolved with its own ack', async () => {
  const { slack, clients } = await greetedClients(2);
  // Each client holds its acks until its whole share has arrived, then acks it in order.
  clients.forEach((client, i) => {
    const ids: string[] = [];
    client.socket.addEventListener('message', (event) => {
      const { envelope_id } = JSON.parse(String(event.data)) as { envelope_id?: string };
      if (envelope_id) ids.push(envelope_id);
      if (ids.length === 3)
        for (const id of ids) client.socket.send(JSON.stringify({ envelope_id: id, payload: { by: i } }));
    });
  });
  const burst = [1, 2, 3, 4, 5, 6].map((n) => ({ type: 'interactive' as const, payload: { n } }));
  const acks = await Promise.all(slack.socketMode.deliverAll(burst, { appToken: APP_TOKEN }));
  expect(acks.map((a) => a.payload)).toEqual([
    { by: 0 },
    { by: 1 },
    { by: 0 },
    { by: 1 },
    { by: 0 },
    { by: 1 },
  ]);
  expect(clients[0]?.received.slice(1).map((m) => m.payload)).toEqual([{ n: 1 }, { n: 3 }, { n: 5 }]);
  expect(clients[1]?.received.slice(1).map((m) => m.payload)).toEqual([{ n: 2 }, { n: 4 }, { n: 6 }]);
});
