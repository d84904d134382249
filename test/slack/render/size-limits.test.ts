/**
 * Every surface the renderers produce, fed inputs far beyond anything sane,
 * must still pass Slack's size limits (messageProblems) with no rejected block.
 */
import { describe, expect, it } from '@jest/globals';
import type { Change, ClickOutcome } from '../../../src/changes/change.js';
import { ValidationError } from '../../../src/changes/errors.js';
import type { FormationView, ImageGroup, RegionView, VesselSummary } from '../../../src/changes/queries.js';
import { UserError } from '../../../src/errors/user-error.js';
import { ApiError } from '../../../src/gamefabric/errors.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { LIMITS, messageProblems } from '../../../src/slack/limits.js';
import { renderChange } from '../../../src/slack/render/change-message.js';
import { renderClickReply } from '../../../src/slack/render/click-reply.js';
import { renderError } from '../../../src/slack/render/errors.js';
import { renderFollowEvent } from '../../../src/slack/render/follow.js';
import type { SlackMessage } from '../../../src/slack/render/message.js';
import {
  renderApprovals,
  renderFormation,
  renderImages,
  renderRegion,
  renderVessels,
} from '../../../src/slack/render/reads.js';
import type { ChangeStatus } from '../../../src/store/types.js';
import { APPROVAL, buttonsOf, makeChange, NOW, textOf } from './fixtures.js';

// 300 characters of the worst kind: every '&', '<', '>' grows to 4-5 characters when escaped.
const LONG = (seed: string) => `${seed}-${'&<>ab'.repeat(60)}`.slice(0, 300);
const HUGE = `${'<error & detail> '.repeat(600)}`; // ~10 KB
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

function expectFits(msg: SlackMessage): void {
  expect(messageProblems(msg)).toEqual([]);
  const ids = msg.blocks.map((b) => b.block_id).filter((id) => id !== undefined);
  expect(new Set(ids).size).toBe(ids.length);
  for (const b of buttonsOf(msg)) {
    if (b.confirm) {
      expect(b.confirm.confirm?.text.length ?? 0).toBeLessThanOrEqual(30);
      expect(b.confirm.deny?.text.length ?? 0).toBeLessThanOrEqual(30);
    }
  }
}

const images: ImageGroup[] = many(50, (g) => ({
  image: LONG(`image${g}`),
  tags: many(100, (t) => ({ tag: LONG(`tag${t}`), internalName: `n${g}-${t}` })),
})); // 5000 images

const vessels: VesselSummary[] = many(2000, (i) => ({
  name: LONG(`vessel${i}`),
  region: LONG('region'),
  state: `Error (${LONG('reason')})`,
  formation: LONG('formation'),
  images: many(5, (c) => LONG(`image${c}`)),
}));

const formation: FormationView = {
  formation: {
    metadata: { name: LONG('formation') },
    spec: {
      description: HUGE,
      template: {
        spec: {
          containers: many(300, (i) => ({ name: LONG(`c${i}`), image: LONG('img'), branch: LONG('b') })),
        },
      },
      vessels: [],
    },
    status: { state: LONG('state'), reason: HUGE },
  },
  containers: many(300, (i) => ({ name: LONG(`c${i}`), image: LONG('img'), branch: LONG('b') })),
  vessels: many(2000, (i) => ({
    index: i,
    name: LONG(`vessel${i}`),
    region: LONG('region'),
    overrides: many(20, (c) => ({ container: LONG(`override${c}`), args: [LONG('arg')] })),
    state: `Error (${HUGE})`,
  })),
};

const region: RegionView = {
  region: { metadata: { name: LONG('region') }, spec: { displayName: HUGE, description: HUGE, types: [] } },
  types: many(500, (i) => ({
    name: LONG(`type${i}`),
    scheduling: 'Distributed',
    locations: many(300, (l) => LONG(`loc${l}`)),
  })),
};

// Built once: the approvals test reuses these parts across 200 changes.
const hugePreview = {
  summary: HUGE,
  lines: many(200, (i) => ({ label: LONG(`label${i}`), value: HUGE })),
  notes: many(100, () => HUGE),
  lists: many(10, (l) => ({ title: HUGE, items: many(2000, (i) => LONG(`item${l}-${i}`)) })),
  destructive: true,
  facts: {},
};
const hugeApprovals = many(600, (i) => ({
  changeId: 'c',
  userId: `U${i}`,
  decision: 'approve' as const,
  at: NOW,
}));
const hugeResult = {
  summary: HUGE,
  lines: many(200, (i) => ({ label: LONG(`r${i}`), value: HUGE })),
  facts: {},
};

/** A change with every preview part oversized and hundreds of approvers and approvals. */
function hugeChange(status: ChangeStatus): Change {
  return makeChange({
    id: 'c'.repeat(36),
    status,
    requester: 'U_REQ',
    confirmedBy: 'U_CONF',
    preview: hugePreview,
    requirement: {
      ...APPROVAL,
      rule: HUGE,
      required: 400,
      approvers: { users: many(500, (i) => `U${i}`), groups: many(500, (i) => `S${i}`) },
    },
    approvals: hugeApprovals,
    result: hugeResult,
    error:
      status === 'cancelled'
        ? { kind: 'rejected', by: 'U_REJ', reason: HUGE }
        : {
            kind: 'api_failed',
            call: { method: 'PATCH', path: `/${HUGE}` },
            status: 500,
            detail: { reason: HUGE, text: HUGE },
          },
  });
}

describe('size limits hold for huge inputs', () => {
  it('renderImages: 5000 images with 300-character names', () => {
    const msg = renderImages(LONG('branch'), images, LONG('ref'));
    expectFits(msg);
    expect(textOf(msg)).toContain('more');
    expectFits(renderImages(LONG('branch'), [], HUGE));
  });

  it('renderVessels: 2000 vessels', () => {
    const msg = renderVessels(LONG('env'), vessels);
    expectFits(msg);
    expect(textOf(msg)).toMatch(/… and \d+ more/);
  });

  it('renderFormation: 2000 vessels with overrides, 300 template containers', () => {
    const msg = renderFormation(LONG('env'), formation);
    expectFits(msg);
    expect(textOf(msg)).toMatch(/… and \d+ more/);
  });

  it('renderRegion: 500 types with 300 locations each', () => {
    expectFits(renderRegion(LONG('env'), region));
  });

  it('renderApprovals: 200 huge changes', () => {
    const msg = renderApprovals(
      many(200, () => hugeChange('awaiting_approval')),
      NOW,
    );
    expectFits(msg);
    expect(textOf(msg)).toContain('… and 185 more');
  });

  for (const status of [
    'pending',
    'awaiting_approval',
    'approved',
    'applying',
    'succeeded',
    'failed',
    'cancelled',
    'expired',
  ] as const) {
    it(`renderChange (${status}): every part oversized`, () => {
      const msg = renderChange(hugeChange(status), NOW);
      expectFits(msg);
      for (const b of buttonsOf(msg)) expect(b.value).toBe('c'.repeat(36));
    });
  }

  it('renderClickReply: a 10 KB refusal stays under the message limit', () => {
    const outcome: ClickOutcome = { kind: 'refused', message: HUGE, change: makeChange() };
    expect((renderClickReply(outcome) as string).length).toBeLessThanOrEqual(LIMITS.messageText);
  });

  it('renderFollowEvent: a 10 KB message about a 300-character vessel', () => {
    for (const kind of ['progress', 'done', 'failed', 'timeout'] as const) {
      expectFits(
        renderFollowEvent({ kind, message: HUGE, vessel: { environment: LONG('e'), name: LONG('v') } }),
      );
    }
  });

  it('renderError: 10 KB messages, 1000 validation problems, huge API errors', () => {
    const logger = createMemoryLogger();
    expectFits(renderError(new UserError(HUGE), logger));
    expectFits(
      renderError(new ValidationError(many(1000, (i) => ({ field: LONG(`f${i}`), message: HUGE }))), logger),
    );
    expectFits(
      renderError(
        new ApiError({
          status: 422,
          reason: HUGE,
          message: HUGE,
          apiMessage: HUGE,
          request: { method: 'PATCH', path: `/${HUGE}` },
        }),
        logger,
      ),
    );
    expectFits(renderError(new Error(HUGE), logger));
    expectFits(renderError('', logger));
  });
});
