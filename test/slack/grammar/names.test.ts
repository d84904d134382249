/**
 * Names typed as arguments follow the platform's naming rule (issue 9.12 and
 * 12.10): `.` and `..` would be resolved away by URL parsing and used to end
 * in "internal error"; the provider also refuses `a..b`, `a.-b` and
 * environment names over 4 characters.
 */
import { describe, expect, it } from '@jest/globals';
import { parseCommand } from '../../../src/slack/grammar/parse.js';

function problem(text: string): string {
  const result = parseCommand(text);
  if (result.ok)
    throw new Error(`expected ${JSON.stringify(text)} to fail, got ${JSON.stringify(result.command)}`);
  return result.usage.problem;
}

describe('names in arguments', () => {
  it.each([
    [
      'vessels .',
      '`<env>` `.` is not a valid environment name: it must start with a lowercase letter or digit; e.g. dev.',
    ],
    [
      'vessels ..',
      '`<env>` `..` is not a valid environment name: it must start with a lowercase letter or digit; e.g. dev.',
    ],
    [
      'formation show dev ..',
      '`<formation>` `..` is not a valid formation name: it must start with a lowercase letter or digit; e.g. lobby.',
    ],
    [
      'region show dev .',
      '`<region>` `.` is not a valid region name: it must start with a lowercase letter or digit; e.g. eu-central.',
    ],
    [
      'logs dev ..',
      '`<vessel>` `..` is not a valid vessel name: it must start with a lowercase letter or digit; e.g. lobby-3.',
    ],
    [
      'images ..',
      '`<branch>` `..` is not a valid branch name: it must start with a lowercase letter or digit; e.g. dev.',
    ],
    [
      'vessel delete dev a..b',
      "`<vessel>` `a..b` is not a valid vessel name: it must have a lowercase letter or digit on both sides of each '.' (no '..', '.-' or '-.'); e.g. lobby-3.",
    ],
    [
      'formation show dev a.-b',
      "`<formation>` `a.-b` is not a valid formation name: it must have a lowercase letter or digit on both sides of each '.' (no '..', '.-' or '-.'); e.g. lobby.",
    ],
  ])('%j', (text, expected) => {
    expect(problem(text)).toBe(expected);
  });

  it('still accepts valid names and branch display names', () => {
    expect(parseCommand('vessels prod').ok).toBe(true);
    expect(parseCommand('formation show dev lobby.v2').ok).toBe(true);
    expect(parseCommand('images Production').ok).toBe(true);
    // A long environment is answered with the environments that exist, as a short one is (issue 18 point 10).
    expect(parseCommand('vessels staging').ok).toBe(true);
  });
});
