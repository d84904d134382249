import { describe, expect, it } from '@jest/globals';
import {
  COMMAND_WORDS,
  FORM_IDS,
  formsOfTopic,
  getForm,
  HELP_TOPICS,
  renderExample,
  renderForm,
  subCommands,
} from '../../../src/slack/grammar/forms.js';
import { parseCommand } from '../../../src/slack/grammar/parse.js';

describe('the forms table', () => {
  it('has an example for every form that parses, with any command name', () => {
    for (const id of FORM_IDS) {
      const example = renderExample(id, '/hm').slice('/hm '.length);
      const result = parseCommand(example, '/hm');
      expect({ id, ok: result.ok }).toEqual({ id, ok: true });
      if (result.ok) expect(result.command.kind === 'modal').toBe(getForm(id).opensModal === true);
    }
  });

  it('renders forms with the command name and bracketed flags', () => {
    expect(renderForm('logs', '/harbor')).toBe(
      '/harbor logs <env> <vessel> [--follow] [--lines <n>] [--container <name>]',
    );
    expect(renderForm('promote', '/hm')).toBe(
      '/hm promote <image>:<tag> from <source-branch> to <target-branch> [--guard <duration>] [--no-guard]',
    );
  });

  it('puts every form in a help topic and every topic has forms', () => {
    expect(HELP_TOPICS.flatMap((t) => formsOfTopic(t)).sort()).toEqual([...FORM_IDS].sort());
    for (const topic of HELP_TOPICS) expect(formsOfTopic(topic).length).toBeGreaterThan(0);
  });

  it('knows the command words and their sub-commands', () => {
    expect([...COMMAND_WORDS].sort()).toEqual(
      [
        'approvals',
        'armada',
        'armadas',
        'armadaset',
        'formation',
        'formations',
        'freeze',
        'freezes',
        'scheduled',
        'gameserver',
        'help',
        'history',
        'images',
        'logs',
        'promote',
        'region',
        'regions',
        'release',
        'rollback',
        'sites',
        'unfreeze',
        'vessel',
        'vessels',
        'watch',
        'watches',
        'unwatch',
      ].sort(),
    );
    expect(subCommands('formation')).toEqual(['show', 'add', 'remove']);
    expect(subCommands('vessel')).toEqual(['show', 'create', 'delete']);
    expect(subCommands('vessels')).toEqual([]);
  });

  it('keeps descriptions to one line', () => {
    for (const id of FORM_IDS) expect(getForm(id).description).not.toContain('\n');
  });
});
