import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../../src/changes/errors.js';
import { UserError } from '../../../src/errors/user-error.js';
import { ApiError } from '../../../src/gamefabric/errors.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { renderClickReply } from '../../../src/slack/render/click-reply.js';
import { renderError } from '../../../src/slack/render/errors.js';
import { renderFollowEvent } from '../../../src/slack/render/follow.js';
import { makeChange, textOf } from './fixtures.js';

describe('renderClickReply', () => {
  const change = makeChange();

  it('passes refusals through and words stale answers', () => {
    expect(renderClickReply({ kind: 'refused', message: 'Only the requester can confirm.', change })).toBe(
      'Only the requester can confirm.',
    );
    expect(renderClickReply({ kind: 'stale', reason: { kind: 'succeeded', by: 'U2' }, change })).toBe(
      'Already done (applied by <@U2>); nothing more to do.',
    );
  });

  it('counts approvals and says how many are still missing', () => {
    expect(renderClickReply({ kind: 'approval_recorded', change, count: 1, required: 2 })).toBe(
      'Approval recorded (1 of 2); waiting for 1 more before it is applied.',
    );
    expect(renderClickReply({ kind: 'approval_recorded', change, count: 2, required: 2 })).toBe(
      'Approval recorded (2 of 2).',
    );
  });

  it('stays silent when the rewritten message says it all', () => {
    for (const kind of ['applied', 'failed', 'rejected', 'cancelled'] as const) {
      expect(renderClickReply({ kind, change })).toBeUndefined();
    }
  });
});

describe('renderFollowEvent', () => {
  it('prefixes each kind clearly and names the vessel', () => {
    const msg = renderFollowEvent({
      kind: 'failed',
      message: 'Vessel eu-1 could not be placed: Error (No <site>)',
      vessel: { environment: 'prod', name: 'eu-1' },
    });
    expect(msg.text).toBe(':x: Failed: Vessel eu-1 could not be placed: Error (No &lt;site&gt;)');
    expect(textOf(msg)).toContain('Vessel `eu-1` in environment `prod`');
    expect(renderFollowEvent({ kind: 'done', message: 'scheduled' }).text).toBe(
      ':white_check_mark: Done: scheduled',
    );
    expect(renderFollowEvent({ kind: 'progress', message: 'Pending' }).text).toContain('Progress: Pending');
    expect(renderFollowEvent({ kind: 'timeout', message: 'gave up' }).text).toContain(
      'Stopped watching: gave up',
    );
  });
});

describe('renderError', () => {
  it('shows a UserError as written (escaped)', () => {
    const msg = renderError(new UserError('No branch <qa>.', 'not_found'), createMemoryLogger());
    expect(msg.text).toBe('No branch &lt;qa&gt;.');
  });

  it('lists each validation problem with its field', () => {
    const err = new ValidationError([
      { field: 'containers[0].cpu', message: 'must look like 500m, e.g. 250m' },
      { field: 'region', message: 'is required' },
    ]);
    const text = textOf(renderError(err, createMemoryLogger()));
    expect(text).toBe(
      'Some things need fixing:\n• `containers[0].cpu`: must look like 500m, e.g. 250m\n• `region`: is required',
    );
  });

  it('translates API errors by status', () => {
    const err = new ApiError({
      status: 403,
      reason: 'Forbidden',
      message: 'PATCH /formations/main: 403 Forbidden: no permission',
      apiMessage: 'no permission',
      request: { method: 'PATCH', path: '/formations/main' },
    });
    expect(renderError(err, createMemoryLogger()).text).toContain('The hosting API refused');
  });

  it('logs anything else under an id and never shows the stack', () => {
    const logger = createMemoryLogger();
    const err = new TypeError('cannot read x of undefined');
    const msg = renderError(err, logger);
    const id = /id ([0-9a-f]{8})/.exec(msg.text)?.[1];
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(logger.lines.some((l) => l.includes(id as string))).toBe(true);
    expect(textOf(msg)).not.toContain('cannot read x');
    expect(textOf(msg)).not.toContain('    at ');
  });
});
