/**
 * Issue 40: the ack decided from a request's body before Bolt's chain
 * (listeners/ack-first.ts), as both receivers use it: bare for commands,
 * clicks and events, a submission's route's answer, "busy" past the
 * backlog's bound; type-ahead left to its listener; the backlog's place
 * given back when no listener takes it over; and a listener that would ack
 * differently logged and counted as the bug it is.
 */
import { expect, it } from '@jest/globals';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { createMetrics } from '../../../src/runtime/metrics.js';
import { ACKED_FIRST, type AckedFirst, AckFront } from '../../../src/slack/listeners/ack-first.js';
import { BUSY_TEXT } from '../../../src/slack/listeners/busy.js';
import { Backlog } from '../../../src/slack/runtime/backlog.js';

function front(limit = 2) {
  const logger = createMemoryLogger();
  const metrics = createMetrics();
  const backlog = new Backlog(limit);
  return { f: new AckFront(backlog, { metrics, logger }), backlog, logger, metrics };
}

const command = { command: '/harbor', text: 'help' };
const submission = {
  type: 'view_submission',
  view: { id: 'V1', callback_id: 'x', blocks: [{ type: 'input', block_id: 'name' }], state: { values: {} } },
};

const decision = (first: { properties: Record<string, unknown> }) =>
  first.properties[ACKED_FIRST] as AckedFirst;

it('acks commands, clicks and events bare, and leaves type-ahead to its listener', () => {
  const { f } = front(10);
  for (const body of [
    command,
    { type: 'block_actions' },
    { type: 'message_action' },
    { type: 'event_callback' },
  ])
    expect(f.decide(body)?.body).toBeUndefined();
  expect(f.decide({ type: 'block_suggestion' })).toBeUndefined();
});

it("acks a submission with its route's answer, and hands the route to the listener", () => {
  const { f } = front();
  const routed = { ack: { response_action: 'errors', errors: { name: 'Give a name.' } } };
  f.routeSubmissions(() => routed);
  const first = f.decide(submission);
  expect(first?.body).toBe(routed.ack);
  expect(first && decision(first).routed).toBe(routed);
});

it('answers "busy" past the backlog, counted, and gives a place back that no listener took over', async () => {
  const { f, backlog, metrics } = front(1);
  const taken = f.decide(command);
  expect(backlog.size).toBe(1);
  const shed = f.decide(command);
  expect(shed?.body).toEqual({ response_type: 'ephemeral', text: BUSY_TEXT });
  expect(shed && decision(shed).shed).toBe(true);
  expect(f.decide(submission)?.body).toEqual({
    response_action: 'errors',
    errors: { name: BUSY_TEXT },
  });
  expect(await metrics.registry.getSingleMetricAsString('harbor_requests_shed_total')).toMatch(
    /kind="command"} 1[\s\S]*kind="submit"} 1|kind="submit"} 1[\s\S]*kind="command"} 1/,
  );
  // No listener claimed it (say, a command of another app): the chain's end gives the place back.
  taken?.done();
  expect(backlog.size).toBe(0);
  // A listener that claims it keeps it past the chain's end, until its work is over.
  const claimed = f.decide(command);
  const giveBack = claimed && decision(claimed).claim();
  claimed?.done();
  expect(backlog.size).toBe(1);
  giveBack?.();
  expect(backlog.size).toBe(0);
});

it('logs and counts a listener that would ack differently; the same answer again is nothing', async () => {
  const { f, logger, metrics } = front();
  const first = f.decide(command);
  first?.again(undefined);
  first?.again({});
  expect(logger.lines).toEqual([]);
  first?.again({ text: 'an answer in the ack' });
  expect(logger.lines.join('\n')).toMatch(/a listener acked differently from the ack sent before the chain/);
  expect(await metrics.registry.getSingleMetricAsString('harbor_errors_total')).toMatch(/where="ack"} 1/);
});
