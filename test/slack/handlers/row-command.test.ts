/** A row button's value is untrusted text: it must parse, and be the kind of command its label says. */
import { describe, expect, it } from '@jest/globals';
import { UserError } from '../../../src/errors/user-error.js';
import { readRowCommand } from '../../../src/slack/handlers/row-command.js';

describe('readRowCommand', () => {
  it.each([
    ['show', 'vessel show dev lobby-1', 'vessel.show'],
    ['show', 'formation show dev lobby', 'formation.show'],
    ['show', 'region show dev eu-central', 'region.show'],
    ['logs', 'logs dev lobby-1', 'logs'],
    ['delete', 'vessel delete dev lobby-1', 'change'],
    ['remove', 'formation remove dev lobby lobby-1', 'change'],
  ] as const)('%s runs `%s`', (action, value, kind) => {
    const row = readRowCommand(action, value, '/harbor');
    expect(row.kind).toBe('run');
    if (row.kind === 'run') expect(row.command.kind).toBe(kind);
  });

  it('reads Promote as the branch and image to preselect', () => {
    expect(readRowCommand('promote', 'promote game-server:1.2.0 from dev', '/harbor')).toEqual({
      kind: 'promote',
      branch: 'dev',
      image: 'game-server:1.2.0',
    });
  });

  it.each([
    ['show', 'vessel delete dev lobby-1'],
    ['logs', 'logs dev lobby-1 --follow'],
    ['delete', 'formation remove dev lobby lobby-1'],
    ['delete', 'vessel show dev lobby-1'],
    ['remove', 'vessel delete dev lobby-1'],
    ['show', 'not a command'],
    ['promote', 'promote game-server:1.2.0 from dev to prod'],
    ['promote', 'promote game-server from dev'],
    ['promote', 'vessel delete dev lobby-1'],
  ] as const)('refuses %s carrying `%s`, naming the button', (action, value) => {
    expect(() => readRowCommand(action, value, '/harbor')).toThrow(UserError);
    expect(() => readRowCommand(action, value, '/harbor')).toThrow(/button does not carry/);
  });
});
