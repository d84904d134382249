/** Hand-built Changes and helpers for reading rendered Block Kit in the renderer tests. */
import type { Button, KnownBlock } from '@slack/types';
import type { Change } from '../../../src/changes/change.js';
import type { Preview } from '../../../src/changes/operation.js';
import type { Requirement } from '../../../src/policy/types.js';
import type { SlackMessage } from '../../../src/slack/render/message.js';

/** 2025-01-15 12:00:00 UTC. */
export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
export const MINUTE = 60_000;

export const PREVIEW: Preview = {
  summary: 'Promote game-server:1.2.0 from dev to prod',
  lines: [
    { label: 'Image', value: 'game-server:1.2.0' },
    { label: 'Target branch', value: 'prod' },
  ],
  notes: ['Running vessels keep their image until restarted.'],
  destructive: false,
  facts: {},
};

export const CONFIRM: Requirement = { mode: 'confirm', rule: 'default', expiresInMs: 15 * MINUTE };

/** An approval requirement: two approvals from U_APP1 or group S_OPS, no self-approval. */
export const APPROVAL: Extract<Requirement, { mode: 'approval' }> = {
  mode: 'approval',
  rule: 'prod-needs-two',
  expiresInMs: 60 * MINUTE,
  required: 2,
  approvers: { users: ['U_APP1'], groups: ['S_OPS'] },
  allowSelfApproval: false,
};

/** A pending image promotion requested by U_REQ, expiring 15 minutes after NOW. */
export function makeChange(overrides: Partial<Change> = {}): Change {
  return {
    id: 'chg-1',
    operation: 'image.promote',
    request: {},
    requester: 'U_REQ',
    origin: { workspace: 'T1', channel: 'C1' },
    status: 'pending',
    createdAt: NOW,
    updatedAt: NOW,
    expiresAt: NOW + 15 * MINUTE,
    preview: PREVIEW,
    requirement: CONFIRM,
    target: { branch: 'prod', sourceBranch: 'dev' },
    approvals: [],
    applyToken: 'chg-1',
    version: 1,
    ...overrides,
  };
}

/** Every button in a message, in order. */
export function buttonsOf(message: SlackMessage): Button[] {
  return message.blocks.flatMap((b: KnownBlock) =>
    b.type === 'actions' ? (b.elements.filter((e) => e.type === 'button') as Button[]) : [],
  );
}

/** All visible text of a message's blocks, joined by newlines (for "contains" assertions). */
export function textOf(message: SlackMessage): string {
  const out: string[] = [];
  for (const b of message.blocks) {
    // Section, header and alert blocks have a text object; a markdown block's text is a string, not read.
    if ('text' in b && typeof b.text === 'object' && b.text?.text) out.push(b.text.text);
    if ('fields' in b) for (const f of b.fields ?? []) out.push(f.text);
    // Images have no text (they join as an empty line).
    if (b.type === 'context') for (const e of b.elements) out.push('text' in e ? e.text : '');
  }
  return out.join('\n');
}
