import { describe, expect, it } from '@jest/globals';
import type { Usage } from '../../../src/slack/grammar/command.js';
import { parseCommand } from '../../../src/slack/grammar/parse.js';

function usage(text: string): Usage {
  const result = parseCommand(text);
  if (result.ok)
    throw new Error(`expected ${JSON.stringify(text)} to fail, got ${JSON.stringify(result.command)}`);
  return result.usage;
}

describe('did you mean', () => {
  it.each([
    ['vesels dev', 'Did you mean `/harbor vessels dev`?'],
    ['imgaes dev', 'Did you mean `/harbor images dev`?'],
    ['form show dev lobby', 'Did you mean `/harbor formation show dev lobby`?'],
    ['aprovals', 'Did you mean `/harbor approvals`?'],
    ['log dev lobby-3', 'Did you mean `/harbor logs dev lobby-3`?'],
    ['promte gs:1 from dev to prod', 'Did you mean `/harbor promote gs:1 from dev to prod`?'],
    ['formation shwo dev lobby', 'Did you mean `/harbor formation show dev lobby`?'],
    ['formation rm dev lobby l-3', 'Did you mean `/harbor formation remove dev lobby l-3`?'],
    ['region sched dev eu bm Packed', 'Did you mean `/harbor region scheduling dev eu bm Packed`?'],
    ['vessel delet dev l-3', 'Did you mean `/harbor vessel delete dev l-3`?'],
    ['release strat Season 4', 'Did you mean `/harbor release start Season 4`?'],
    ['promote gs:1 form dev to prod', 'Did you mean `/harbor promote gs:1 from dev to prod`?'],
    ['vessel rm dev l-3', 'Did you mean `/harbor vessel delete dev l-3`?'],
    ['tail dev lobby-3', 'Did you mean `/harbor logs dev lobby-3`?'],
    // Two typos: both are fixed in the suggestion.
    ['formaton shwo dev lobby', 'Did you mean `/harbor formation show dev lobby`?'],
  ])('%j', (text, suggestion) => {
    expect(usage(text).suggestion).toBe(suggestion);
  });

  it('names the command and lists every command for an unknown first word', () => {
    const u = usage('imgaes dev');
    expect(u.problem).toBe(
      '`imgaes` is not a command. Commands: images, promote, vessels, vessel, formations, formation, regions, region, sites, armadas, armada, armadaset, gameserver, logs, watch, watches, unwatch, freeze, unfreeze, freezes, scheduled, release, approvals, rollback, history, help.',
    );
    expect(u.forms).toEqual(['/harbor images <branch> [<image>[:<tag>]]']);
  });

  it('suggests the word when the corrected text still does not parse', () => {
    const u = usage('vesels');
    expect(u.suggestion).toBe('Did you mean `vessels` or `vessel`?');
    expect(usage('formation shwo').suggestion).toBe('Did you mean `formation show`?');
  });

  it('offers nothing for words far from any command, and points to help', () => {
    const u = usage('deploy everything');
    expect(u.suggestion).toBeUndefined();
    expect(u.forms).toEqual(['/harbor help [<topic>]']);
  });

  it('never reaches Object.prototype through a command word', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(parseCommand(word).ok).toBe(false);
      expect(parseCommand(`formation ${word} dev x`).ok).toBe(false);
      expect(parseCommand(`region ${word}`).ok).toBe(false);
    }
  });
});

describe('singular and plural slips', () => {
  it('vessel <env> meant vessels <env>', () => {
    const u = usage('vessel dev');
    expect(u.problem).toBe('`dev` is not a `vessel` sub-command; use `show`, `create` or `delete`.');
    expect(u.suggestion).toBe('Did you mean `/harbor vessels dev`?');
    expect(u.forms[0]).toBe('/harbor vessels <env>');
  });

  it('vessels create <env> meant vessel create <env>', () => {
    expect(usage('vessels create dev').suggestion).toBe('Did you mean `/harbor vessel create dev`?');
  });

  it('image <branch> meant images <branch>', () => {
    expect(usage('image dev').suggestion).toBe('Did you mean `/harbor images dev`?');
  });

  it('formations and regions meant formation and region', () => {
    expect(usage('formations show dev lobby').suggestion).toBe(
      'Did you mean `/harbor formation show dev lobby`?',
    );
    expect(usage('regions show dev eu').suggestion).toBe('Did you mean `/harbor region show dev eu`?');
  });
});
