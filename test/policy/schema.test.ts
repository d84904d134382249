import { describe, expect, it } from '@jest/globals';
import { PolicyError, parsePolicy } from '../../src/policy/index.js';
import { fakeDirectory } from './fixtures.js';

const { ctx } = fakeDirectory();

/** The problems parsePolicy reports for `yaml` (fails the test when it parses). */
function problemsOf(yaml: string): readonly string[] {
  try {
    parsePolicy(yaml, ctx, 'test.yml');
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyError);
    return (error as PolicyError).problems;
  }
  throw new Error('expected the policy to be refused');
}

const approvalRule = (approval: string) => `rules:\n  - operations: ['*']\n    approval: ${approval}\n`;

describe('policy validation', () => {
  it.each([
    ['', 'the policy is empty: expected a `rules:` list'],
    ['- a\n- b\n', 'expected a mapping with a `rules:` list'],
    ['defaults: {}\n', 'rules: expected a list of rules'],
    ['rules: []\n', 'rules: expected at least one rule (with no rules, everything is denied)'],
    ['version: 2\nrules: [{ operations: "*" }]\n', 'version: expected 1 (the only policy format so far)'],
    ['rules: [{ operations: "*" }]\nextra: 1\n', 'unknown key "extra"'],
    [
      'rules:\n  - name: x\n',
      'rules[0].operations: expected operation id or glob or a list of operation ids or globs',
    ],
    ['rules: [{ operations: [] }]\n', 'rules[0].operations: expected at least one operation id or glob'],
    [
      'rules: [{ operations: [vessels.delete] }]\n',
      'rules[0].operations[0]: "vessels.delete" matches no operation (known: images.list, vessels.list, ' +
        'formation.show, region.show, sites.list, logs.read, armadas.list, armada.show, armadaset.show, watch.manage, freeze.manage, changes.scheduled, image.promote, vessel.create, vessel.delete, formation.add, ' +
        'formation.remove, region.create, region.scheduling, armada.scale, armadaset.scale, armada.image, armadaset.image, gameserver.terminate, change.rollback; globs like formation.* or *)',
    ],
    ['rules: [{ operations: "*", target: { env: prod } }]\n', 'rules[0].target: unknown key "env"'],
    [
      'rules: [{ operations: "*", target: { branch: [] } }]\n',
      'rules[0].target.branch: expected at least one name or glob',
    ],
    [
      'rules: [{ operations: "*", requesters: { users: [alice] } }]\n',
      `rules[0].requesters.users[0]: expected a Slack user id like U012AB3CDE or '*' for anyone, got "alice"`,
    ],
    [
      'rules: [{ operations: "*", requesters: { groups: [U0DEV00001] } }]\n',
      'rules[0].requesters.groups[0]: expected a Slack user group id like S012AB3CDE, got "U0DEV00001"',
    ],
    [
      'rules: [{ operations: "*", requesters: { users: [] } }]\n',
      "rules[0].requesters: expected at least one user or group (users: ['*'] for anyone, or leave requesters out)",
    ],
    [
      'rules: [{ operations: "*", channels: [] }]\n',
      'rules[0].channels: expected at least one channel (or leave channels out to allow any)',
    ],
    [
      'rules: [{ operations: "*", channels: ["Deploys!"] }]\n',
      'rules[0].channels[0]: expected a channel id like C012AB3CDE or a lowercase name like #deploys, got "Deploys!"',
    ],
    [
      'rules: [{ operations: "*", channels: ["#Deploys"] }]\n',
      'rules[0].channels[0]: expected a channel id like C012AB3CDE or a lowercase name like #deploys, got "#Deploys"',
    ],
    [
      'rules: [{ operations: "*", expires: 2w }]\n',
      'rules[0].expires: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "2w"',
    ],
    [
      'defaults: { expires: 90 }\nrules: [{ operations: "*" }]\n',
      'defaults.expires: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got 90',
    ],
    [
      approvalRule('{ required: 0, approvers: { users: ["*"] } }'),
      'rules[0].approval.required: expected a positive integer',
    ],
    [
      approvalRule('{ required: 1.5, approvers: { users: ["*"] } }'),
      'rules[0].approval.required: expected a positive integer',
    ],
    [
      approvalRule('{ required: two, approvers: { users: ["*"] } }'),
      'rules[0].approval.required: expected a positive integer',
    ],
    [
      approvalRule('{ approvers: { users: ["*"] } }'),
      "rules[0].approval.required: expected a positive integer (how many distinct approvers), or use mode: 'confirm'",
    ],
    [
      approvalRule('{ required: 1 }'),
      "rules[0].approval.approvers: expected the users and/or groups who may approve (users: ['*'] for anyone)",
    ],
    [
      approvalRule('{ mode: confirm, required: 2 }'),
      "rules[0].approval.required: not used with mode 'confirm'",
    ],
    [approvalRule('{ mode: vote }'), "rules[0].approval.mode: expected 'confirm' or 'approval'"],
    [
      approvalRule('{ required: 1, approvers: { users: ["*"] }, allowSelfApproval: "no" }'),
      'rules[0].approval.allowSelfApproval: expected true or false',
    ],
    [
      approvalRule('{ required: 3, approvers: { users: [U0SRE00001, U0SRE00001, U0SRE00002] } }'),
      'rules[0].approval.required: needs 3 distinct approvers but approvers lists only 2 user(s) and no group',
    ],
    [
      'rules:\n  - { name: same, operations: "*" }\n  - { name: same, operations: "*" }\n',
      'rules[1].name: duplicate rule name "same" (also rules[0])',
    ],
    ['rules: [\n  - a\n', 'line 2, column 3: Block collections are not allowed within flow collections'],
    ['rules: []\nrules: []\n', 'line 2, column 1: Map keys must be unique'],
  ])('%j is refused', (yaml, problem) => {
    expect(problemsOf(yaml)).toContain(problem);
  });

  it('reports every problem at once, each as path: message', () => {
    const problems = problemsOf(
      [
        'rules:',
        '  - operations: [vessel.delete]',
        '  - operations: [vessel.delete]',
        '  - operations: [vessel.delete]',
        '    approval: { required: 0, approvers: { groups: [S02SRE] } }',
        '    expires: soon',
      ].join('\n'),
    );
    expect(problems).toEqual([
      'rules[2].approval.required: expected a positive integer',
      'rules[2].expires: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "soon"',
    ]);
  });

  it('puts the source and every problem in the error message', () => {
    expect(() =>
      parsePolicy('rules: [{ operations: nope, expires: x }]', ctx, '/etc/harbor/policy.yml'),
    ).toThrow(
      /^invalid policy \(\/etc\/harbor\/policy\.yml\):\n {2}- rules\[0\]\.operations\[0\]: "nope" matches no operation.*\n {2}- rules\[0\]\.expires: /s,
    );
  });

  it('accepts single strings where lists are allowed', () => {
    const policy = parsePolicy(
      'rules: [{ operations: vessel.delete, target: { environment: dev } }]',
      ctx,
      'test.yml',
    );
    expect(policy.requirement('vessel.delete', { environment: 'dev' })).toEqual({
      mode: 'confirm',
      rule: 'rules[0]',
      expiresInMs: 30 * 60_000,
    });
  });
});
