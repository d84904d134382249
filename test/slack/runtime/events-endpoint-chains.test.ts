/**
 * Issue 40, HTTP: a request's Bolt chain never runs in the turn its ack was
 * written. Each chain starts on a later turn of the loop (ChainsAfterReads),
 * after the loop has read and acked the requests still arriving, as in
 * Socket Mode. A chain run at once would take the CPU (authorization,
 * middleware, matching every listener) before the next request of a burst is
 * even read, and every later ack would wait behind it.
 *
 * The check is the loop's own order: a `setImmediate` queued as the ack is
 * sent runs before the chain when the chain is deferred, and after it when
 * the chain runs in the ack's turn.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from '@jest/globals';
import type { App } from '@slack/bolt';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { boltLogger } from '../../../src/slack/runtime/bolt-logger.js';
import { eventsEndpoint } from '../../../src/slack/runtime/events-endpoint.js';
import { type AckFirst, ChainsAfterReads } from '../../../src/slack/runtime/first-ack.js';
import { postSigned, slashCommandBody } from '../../../src/workspace/signing.js';

const SECRET = 'chain-turns-secret';
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves the events endpoint; records, per request, whether the chain came after its ack's turn. */
async function serve(chains?: ChainsAfterReads) {
  const turnPassed = new Map<string, boolean>();
  const afterAckTurn: boolean[] = [];
  const ackFirst: AckFirst = (body) => {
    const id = String(body.text);
    return {
      body: undefined,
      properties: { id },
      sent: () => {
        turnPassed.set(id, false);
        setImmediate(() => turnPassed.set(id, true));
      },
      again: () => {},
      done: () => {},
    };
  };
  const app = {
    processEvent: async ({ customProperties }: { customProperties: { id: string } }) => {
      afterAckTurn.push(turnPassed.get(customProperties.id) === true);
    },
  } as unknown as App;
  const logger = createMemoryLogger();
  const events = eventsEndpoint({
    signingSecret: SECRET,
    app: () => app,
    logger,
    boltLogger: boltLogger(logger),
    ackFirst,
    ...(chains ? { chains } : {}),
  });
  server = createServer(events);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  const burst = async (n: number) => {
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        postSigned(
          url,
          SECRET,
          slashCommandBody({ text: `r${i}`, response_url: 'https://hooks.slack.com/commands/T1/1/x' }),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // Every chain has run by the time the loop has turned a few more times.
    while (afterAckTurn.length < n) await new Promise((resolve) => setImmediate(resolve));
    return afterAckTurn;
  };
  return { burst };
}

it("starts each chain on a later turn than its ack's, for every request of a burst", async () => {
  const { burst } = await serve(new ChainsAfterReads());
  expect(await burst(30)).toEqual(Array.from({ length: 30 }, () => true));
});

it('would run a chain in its ack turn without it (what the check above tells apart)', async () => {
  const { burst } = await serve();
  expect(await burst(5)).toEqual(Array.from({ length: 5 }, () => false));
});
