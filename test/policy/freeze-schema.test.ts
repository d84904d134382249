/** The policy's `freezes:` windows and `break_glass:` (issue 41) are validated at start, every problem as `path: message`. */
import { describe, expect, it } from '@jest/globals';
import { PolicyError, parsePolicy } from '../../src/policy/index.js';
import { fakeDirectory, SRE_GROUP, SRE1 } from './fixtures.js';

const { ctx } = fakeDirectory();
const RULES = "rules:\n  - operations: ['*']\n";

function problemsOf(yaml: string): readonly string[] {
  try {
    parsePolicy(yaml, ctx, 'test.yml');
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyError);
    return (error as PolicyError).problems;
  }
  throw new Error('expected the policy to be refused');
}

/** A one-window policy; `fields` (`key: value`) replace the good window's or add to them. */
const window = (fields: string) => {
  const good: Record<string, string> = {
    name: 'weekend',
    environments: '[prod]',
    days: '[sat, sun]',
    from: '"16:00"',
    to: '"09:00"',
    timezone: 'Europe/Berlin',
  };
  const [key, ...value] = fields.split(': ');
  const all = { ...good, [key as string]: value.join(': ') };
  const flow = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  return `freezes:\n  - { ${flow} }\n${RULES}`;
};

describe('freeze windows and break glass in the policy file', () => {
  it('reads a good window and break_glass', () => {
    const policy = parsePolicy(
      `${window('reason: tournaments')}break_glass:\n  required: 1\n  approvers: { groups: [${SRE_GROUP}], users: [${SRE1}] }\n`,
      ctx,
    );
    expect(policy.freezeWindows).toMatchObject([
      {
        name: 'weekend',
        days: [6, 0],
        from: { hour: 16, minute: 0 },
        to: { hour: 9, minute: 0 },
        timezone: 'Europe/Berlin',
      },
    ]);
    expect(policy.freezeWindows[0]?.covers('PROD')).toBe(true);
    expect(policy.breakGlass).toEqual({ required: 1, approvers: { groups: [SRE_GROUP], users: [SRE1] } });
  });

  it.each([
    [
      window('timezone: Europe/Berlinn'),
      'freezes[0].timezone: expected an IANA time zone like Europe/Berlin or UTC, got "Europe/Berlinn" (unknown to this runtime)',
    ],
    [window('from: "25:00"'), 'freezes[0].from: expected a time like "16:00" (24-hour HH:MM), got "25:00"'],
    [window('to: 9'), 'freezes[0].to: expected a time like "16:00" (24-hour, quoted), got 9'],
    [
      window('days: [saturday]'),
      'freezes[0].days[0]: expected a day: sun, mon, tue, wed, thu, fri, sat; got "saturday"',
    ],
    [window('days: []'), 'freezes[0].days: expected at least one day the window starts on'],
    [
      window('to: "16:00"'),
      'freezes[0].to: the window would last no time (from and to are both 16:00); to end the next day, write a "to" earlier than "from"',
    ],
    [window('when: always'), 'freezes[0]: unknown key "when"'],
    [
      `break_glass:\n  required: 2\n  approvers: { users: [${SRE1}] }\n${RULES}`,
      'break_glass.required: needs 2 distinct approvers but approvers lists only 1 user(s) and no group',
    ],
    [
      `break_glass:\n  required: 1\n  approvers: { users: [bob] }\n${RULES}`,
      `break_glass.approvers.users[0]: expected a Slack user id like U012AB3CDE or '*' for anyone, got "bob"`,
    ],
  ])('%j is refused', (yaml, problem) => {
    expect(problemsOf(yaml)).toContain(problem);
  });

  it('refuses duplicate window names', () => {
    const yaml = `freezes:\n  - { name: w, environments: [prod], days: [sat], from: "16:00", to: "09:00", timezone: UTC }\n  - { name: w, environments: [dev], days: [sun], from: "16:00", to: "09:00", timezone: UTC }\n${RULES}`;
    expect(problemsOf(yaml)).toEqual(['freezes[1].name: duplicate window name "w" (also freezes[0])']);
  });
});
