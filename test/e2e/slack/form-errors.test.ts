/**
 * Every form answers a submission with all of its field problems at once
 * (`response_action: errors`): what the form finds missing and what the
 * operation's own checks find wrong, in one answer, so nobody fixes one field,
 * submits, and only then learns about the next.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, openedViewId } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

async function openForm(text: string): Promise<StoredView> {
  await h.slash(text);
  const view = h.slack.view(openedViewId(h));
  if (!view) throw new Error(`${text} opened no form`);
  return view;
}

/** Submits `given` and returns the errors the ack carried. */
async function errorsFor(view: StoredView, given: Record<string, string>): Promise<Record<string, string>> {
  const res = await h.submit(view.id, answers(view, given));
  const ack = res.body as unknown as { response_action?: string; errors?: Record<string, string> };
  expect(ack.response_action).toBe('errors');
  return ack.errors ?? {};
}

describe('all field errors at once', () => {
  it('formation add: a bad vessel name and a missing region in one answer', async () => {
    const form = await openForm('formation add dev lobby');
    const errors = await errorsFor(form, { vessel: 'Lobby_3!' });
    expect(Object.keys(errors).sort()).toEqual(['region', 'vessel']);
    expect(errors.vessel).toBe(
      `"Lobby_3!" is not a valid vessel name: it may contain only lowercase letters, digits, '-' and '.'; e.g. lobby-3`,
    );
    expect(h.lastMessage).toThrow();
  });

  it('region create: a bad region name and a type without locations in one answer', async () => {
    const form = await openForm('region create dev');
    const errors = await errorsFor(form, { name: 'EU West!', 'type.0.name': 'baremetal' });
    expect(Object.keys(errors).sort()).toEqual(['name', 'type.0.locations']);
  });

  it('logs form: a missing vessel and a bad container name in one answer', async () => {
    const form = await openForm('logs dev');
    const errors = await errorsFor(form, { container: 'Game Server!' });
    expect(Object.keys(errors).sort()).toEqual(['container', 'vessel']);
    expect(errors.vessel).toMatch(/^Choose a vessel/);
  });
});
