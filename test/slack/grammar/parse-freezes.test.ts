/** `freeze`, `unfreeze`, `freezes` and `--break-glass` (issue 41): what each form reads, and bad input answered with the argument and an example. */
import { describe, expect, it } from '@jest/globals';
import { parseCommand } from '../../../src/slack/grammar/parse.js';

const ok = (text: string) => {
  const r = parseCommand(text);
  if (!r.ok) throw new Error(`expected ${text} to parse: ${r.usage.problem}`);
  return r.command;
};
const usage = (text: string) => {
  const r = parseCommand(text);
  if (r.ok) throw new Error(`expected ${text} to be refused`);
  return r.usage;
};

describe('freeze commands', () => {
  it.each([
    ['freeze prod', { kind: 'freeze', environment: 'prod' }],
    ['freeze Prod for 90s', { kind: 'freeze', environment: 'prod', forMs: 90_000 }],
    [
      'freeze prod for 2h tournament final',
      { kind: 'freeze', environment: 'prod', forMs: 7_200_000, reason: 'tournament final' },
    ],
    [
      'freeze prod until 2026-12-01T18:00+01:00 season launch',
      {
        kind: 'freeze',
        environment: 'prod',
        until: Date.parse('2026-12-01T17:00:00Z'),
        reason: 'season launch',
      },
    ],
    [
      'freeze prod until 2026-12-01T18:00:30Z',
      { kind: 'freeze', environment: 'prod', until: Date.parse('2026-12-01T18:00:30Z') },
    ],
    ["freeze prod Bob's big day", { kind: 'freeze', environment: 'prod', reason: "Bob's big day" }],
    ['unfreeze prod', { kind: 'unfreeze', environment: 'prod' }],
    ['freezes', { kind: 'freezes' }],
  ])('%j', (text, command) => {
    expect(ok(text)).toEqual(command);
  });

  it.each([
    ['freeze', '`freeze` is missing `<env>`.'],
    ['freeze prod for', '`for` needs a duration: 90s, 30m, 2h or 1d (seconds, minutes, hours or days).'],
    [
      'freeze prod for 2w',
      '`2w` is not a duration: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "2w".',
    ],
    ['freeze prod for 31d', '`31d` is not a duration: expected at most 30d, got "31d".'],
    [
      'freeze prod until tomorrow',
      '`tomorrow` is not a time: expected a time in ISO 8601 with an offset, like `2026-12-01T18:00+01:00` or `2026-12-01T18:00:30Z`; got "tomorrow".',
    ],
    [
      'freeze prod until 2026-12-01T18:00',
      '`2026-12-01T18:00` is not a time: expected a time in ISO 8601 with an offset, like `2026-12-01T18:00+01:00` or `2026-12-01T18:00:30Z`; got "2026-12-01T18:00".',
    ],
    [
      'freeze prod until 2026-02-30T18:00Z',
      '`2026-02-30T18:00Z` is not a time: "2026-02-30T18:00Z" is not a real date and time; expected e.g. `2026-12-01T18:00+01:00` or `2026-12-01T18:00:30Z`.',
    ],
    ['freeze prod --for 2h', '`freeze` takes no flags (`--for`); put the reason in words.'],
    ['unfreeze', '`unfreeze` is missing `<env>`.'],
  ])('%j is refused with the argument named', (text, problem) => {
    const u = usage(text);
    expect(u.problem).toBe(problem);
    expect(u.example).toBeDefined();
  });
});

describe('--break-glass', () => {
  it('puts the reason on a typed change, quoted or as the last words', () => {
    expect(ok('vessel delete prod lobby-3 --break-glass "crashes every match"')).toMatchObject({
      kind: 'change',
      operation: 'vessel.delete',
      breakGlass: 'crashes every match',
    });
    expect(ok('armada scale prod duel --min 4 --break-glass servers down in the final')).toMatchObject({
      kind: 'change',
      operation: 'armada.scale',
      breakGlass: 'servers down in the final',
    });
  });

  it.each([
    [
      'vessel delete prod lobby-3 --break-glass',
      '`--break-glass` needs a reason after it: why this change cannot wait for the freeze to end.',
    ],
    [
      'vessels prod --break-glass why',
      '`--break-glass` goes with commands that change something; `vessels` only reads.',
    ],
    [
      'vessel show prod lobby-3 --break-glass why',
      '`--break-glass` goes with a typed change command, not `vessel.show`, which only reads: type the change in full with the flag last.',
    ],
    [
      'promote --break-glass why',
      '`--break-glass` goes with a typed change command, not a form: type the change in full with the flag last, or open the form and fill its Break glass field.',
    ],
  ])('%j is refused', (text, problem) => {
    expect(usage(text).problem).toBe(problem);
  });
});

describe('--at', () => {
  it('carries the time as typed on a typed change: one word, several, quoted, or with =', () => {
    expect(ok('armada scale prod duel --min 4 --at 18:00 Europe/Berlin')).toMatchObject({
      kind: 'change',
      operation: 'armada.scale',
      at: '18:00 Europe/Berlin',
    });
    expect(ok('vessel delete prod lobby-3 --at in 2h')).toMatchObject({
      operation: 'vessel.delete',
      at: 'in 2h',
    });
    expect(ok('vessel delete prod lobby-3 --at "2026-12-01T18:00+01:00"')).toMatchObject({
      at: '2026-12-01T18:00+01:00',
    });
    expect(ok('vessel delete prod lobby-3 --at=2026-12-01T18:00:30Z')).toMatchObject({
      at: '2026-12-01T18:00:30Z',
    });
  });

  it('goes with --break-glass and --release, in any order', () => {
    expect(
      ok('armada scale prod duel --min 4 --at in 1h --no-release --break-glass final is on'),
    ).toMatchObject({ at: 'in 1h', breakGlass: 'final is on', release: { kind: 'none' } });
  });

  it.each([
    ['vessel delete prod lobby-3 --at', '`--at` needs a time after it'],
    ['vessels prod --at in 2h', '`--at` goes with commands that change something; `vessels` only reads.'],
    ['vessel show prod lobby-3 --at in 2h', '`--at` goes with a typed change command, not `vessel.show`'],
    ['promote --at in 2h', 'not a form (its When field takes the time)'],
    ['vessel delete prod lobby-3 --at in 2h --at in 3h', 'Give `--at` once.'],
  ])('%j is refused', (text, problem) => {
    expect(usage(text).problem).toContain(problem);
  });
});

describe('scheduled', () => {
  it('lists all or one environment', () => {
    expect(ok('scheduled')).toEqual({ kind: 'scheduled' });
    expect(ok('scheduled Prod')).toEqual({ kind: 'scheduled', environment: 'prod' });
  });
});
