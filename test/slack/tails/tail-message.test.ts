/** The tail messages: what each state shows, and Slack's size limits under hostile input. */
import { describe, expect, it } from '@jest/globals';
import type { ActionsBlock, ContextBlock, MrkdwnElement, SectionBlock } from '@slack/types';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { messageProblems } from '../../../src/slack/limits.js';
import {
  describeTailStop,
  renderFinalTail,
  renderFrozenTail,
  renderLiveTail,
  renderTailParent,
  renderTakeover,
  TAIL_LINES_BUDGET,
  tailLineCost,
} from '../../../src/slack/render/tail-message.js';
import type { TailStopReason } from '../../../src/tails/stop-reason.js';

const base = {
  tailId: 'tail-1',
  env: 'dev',
  vessel: 'lobby-1',
  container: 'game-server',
  lines: [{ text: 'player <alice> joined & ready' }, { text: 'a ```fence``` in a log line' }],
  seen: 1234,
  neverShown: 56,
};

const shown = (m: { text: string; blocks: unknown[] }) => `${m.text}\n${JSON.stringify(m.blocks)}`;

describe('tail messages', () => {
  it('live: header with env, container and counts, escaped lines in a code block, a Stop button with the tail id', () => {
    const m = renderLiveTail(base);
    expect(m.text).toBe('lobby-1 (dev, container game-server): live · 1234 lines seen · 56 not shown');
    // A context header, a section of lines, and the actions.
    type LiveTail = [
      ContextBlock & { elements: [MrkdwnElement] },
      SectionBlock & { text: MrkdwnElement },
      ActionsBlock,
    ];
    const [header, lines, actions] = m.blocks as LiveTail;
    expect(header?.elements[0].text).toBe(
      '*lobby-1* · dev · container game-server · live · 1234 lines seen · 56 not shown',
    );
    expect(lines?.text.text).toMatch(/^```\n/);
    expect(lines?.text.text).toContain('player &lt;alice&gt; joined &amp; ready');
    expect(lines?.text.text).not.toContain('```fence');
    expect(actions?.elements).toEqual([
      {
        type: 'button',
        action_id: TAIL_ACTIONS.stop,
        text: { type: 'plain_text', text: 'Stop' },
        accessibility_label: 'Stop tailing logs of lobby-1 in dev, container game-server',
        value: 'tail-1',
      },
    ]);
  });

  it('live without lines says it is waiting, rather than showing an empty block', () => {
    const m = renderLiveTail({ ...base, lines: [], seen: 0, neverShown: 0 });
    expect(shown(m)).toContain('Waiting for log lines');
    expect(shown(m)).toContain('live · 0 lines seen · 0 not shown');
  });

  it('frozen: the part number and "continued below", its lines, no button', () => {
    const m = renderFrozenTail({ ...base, part: 3 });
    expect(m.text).toBe('lobby-1 (dev, container game-server): part 3 · continued below');
    expect(shown(m)).toContain('player &lt;alice&gt;');
    expect(m.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it('final: why, by whom, seen and never shown, the last lines, no button', () => {
    const m = renderFinalTail({ ...base, reason: { kind: 'stopped', by: 'U0BOB' } });
    expect(m.text).toBe(
      'lobby-1 (dev, container game-server): stopped by <@U0BOB> · 1234 lines seen · 56 never shown',
    );
    expect(shown(m)).toContain('player &lt;alice&gt;');
    expect(m.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it.each<[TailStopReason, string]>([
    [{ kind: 'stopped' }, 'stopped'],
    [{ kind: 'release_ended', release: 'r1' }, 'stopped: the release ended'],
    [{ kind: 'vessel_deleted' }, 'stopped: the Vessel was deleted'],
    [{ kind: 'max_duration', afterMs: 2 * 3600_000 }, 'stopped after the maximum duration (2 h)'],
    [{ kind: 'max_duration', afterMs: 90 * 60_000 }, 'stopped after the maximum duration (1 h 30 min)'],
    [{ kind: 'max_duration', afterMs: 10 * 60_000 }, 'stopped after the maximum duration (10 min)'],
    [{ kind: 'api_error', status: 403, message: 'refused <x>' }, 'stopped: refused &lt;x&gt;'],
    [{ kind: 'gave_up', attempts: 5, message: 'down' }, 'stopped: gave up after 5 reconnects (down)'],
  ])('names the stop reason %j', (reason, text) => {
    expect(describeTailStop(reason)).toBe(text);
  });

  it('thread parent and takeover notice name the vessel, the user and the replica', () => {
    expect(shown(renderTailParent(base, 'U0ALICE'))).toContain(
      'Tailing *lobby-1* (dev · container game-server) for <@U0ALICE>',
    );
    expect(renderTakeover(base, 'replica-b').text).toBe('Taken over by replica replica-b');
  });

  it('stays within every Slack limit with huge, hostile input', () => {
    const hostile = '<&>`'.repeat(5000);
    const huge = {
      ...base,
      env: hostile,
      vessel: hostile,
      container: hostile,
      tailId: 'x'.repeat(100),
      lines: Array.from({ length: 5000 }, (_, i) => ({ text: `${i} ${hostile}` })),
      seen: Number.MAX_SAFE_INTEGER,
      neverShown: Number.MAX_SAFE_INTEGER,
    };
    const reasons: TailStopReason[] = [
      { kind: 'api_error', status: 500, message: hostile },
      { kind: 'gave_up', attempts: 9, message: hostile },
      { kind: 'stopped', by: hostile },
    ];
    const messages = [
      renderLiveTail(huge),
      renderFrozenTail({ ...huge, part: 10 }),
      ...reasons.map((reason) => renderFinalTail({ ...huge, reason })),
      renderTailParent(huge, 'U0ALICE'),
      renderTakeover(huge, hostile),
    ];
    for (const m of messages) expect(messageProblems(m)).toEqual([]);
  });

  it('a window the tail view filled to TAIL_LINES_BUDGET fits the code block whole', () => {
    const lines: { text: string }[] = [];
    let used = 0;
    for (let i = 0; ; i++) {
      const line = { text: `${i} <${'&'.repeat(i % 40)}> \`\`\`` };
      if (used + tailLineCost(line) > TAIL_LINES_BUDGET) break;
      lines.push(line);
      used += tailLineCost(line);
    }
    const m = renderLiveTail({ ...base, lines });
    expect(messageProblems(m)).toEqual([]);
    const block = (m.blocks[1] as { text: { text: string } }).text.text;
    expect(block.split('\n')).toHaveLength(lines.length + 2);
    expect(block).toMatch(/^```\n0 &lt;&gt; /);
  });
});
