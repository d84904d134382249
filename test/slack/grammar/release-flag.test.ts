/**
 * `--release <title-or-id>` and `--no-release` on every change command
 * (src/slack/grammar/release-flag.ts): taken out before the command's own
 * parse and put on the change or change form; refused on reads, given twice,
 * or without a value; a quoted `--args` value that contains the word is left alone.
 */
import { describe, expect, it } from '@jest/globals';
import type { Command } from '../../../src/slack/grammar/command.js';
import { parseCommand } from '../../../src/slack/grammar/parse.js';

function command(text: string): Command {
  const result = parseCommand(text);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(text)} to parse, got: ${result.usage.problem}`);
  return result.command;
}

function problem(text: string): string {
  const result = parseCommand(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} not to parse`);
  return result.usage.problem;
}

const NAMED = { kind: 'named', ref: 'Season 4 launch' } as const;

describe('--release', () => {
  it.each([
    'promote game-server:1.2.0 from dev to prod --release "Season 4 launch"',
    'promote --release "Season 4 launch"',
    'vessel create dev --release "Season 4 launch"',
    'vessel delete dev duel-1 --release "Season 4 launch"',
    'formation add dev lobby lobby-3 eu-central --release "Season 4 launch" --container game-server --image game-server:1.2.0',
    'formation add dev lobby --release "Season 4 launch"',
    'formation remove dev lobby lobby-1 --release="Season 4 launch"',
    'formation remove dev --release "Season 4 launch"',
    'region create dev --release "Season 4 launch"',
    'region scheduling dev eu-central baremetal Packed --release "Season 4 launch"',
    'region scheduling dev --release "Season 4 launch"',
    'armada scale dev duel --type cloud --max 3 --release "Season 4 launch"',
    'armada scale dev --release "Season 4 launch"',
    'armadaset scale prod arena --region eu-central --max 16 --release "Season 4 launch"',
    'armada image dev duel game-server:1.1.0 --release "Season 4 launch"',
    'armadaset image dev arena game-server:1.2.0 --RELEASE "Season 4 launch"',
  ])('%s carries the release it names', (text) => {
    const parsed = command(text);
    expect(parsed.kind === 'change' || parsed.kind === 'modal').toBe(true);
    expect(parsed).toMatchObject({ release: NAMED });
  });

  it('leaves the command as it was otherwise', () => {
    expect(command('vessel delete dev duel-1 --release rel-1')).toEqual({
      kind: 'change',
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'duel-1' },
      release: { kind: 'named', ref: 'rel-1' },
    });
    expect(command('vessel delete dev duel-1 --no-release')).toEqual({
      kind: 'change',
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'duel-1' },
      release: { kind: 'none' },
    });
    expect(command('vessel delete dev duel-1')).not.toHaveProperty('release');
  });

  it('a quoted `--args` value mentioning it is the container’s, not ours', () => {
    const parsed = command(
      'formation add dev lobby lobby-3 eu-central --container game-server --args "--release x"',
    );
    expect(parsed).not.toHaveProperty('release');
    expect(parsed).toMatchObject({
      input: { overrides: [{ container: 'game-server', args: ['--release', 'x'] }] },
    });
  });

  it('is refused with a reason when it is misused', () => {
    expect(problem('vessel delete dev duel-1 --release')).toContain(
      "`--release` needs the release's title or id",
    );
    expect(problem('vessel delete dev duel-1 --release --no-release')).toContain(
      "`--release` needs the release's title or id",
    );
    expect(problem('vessel delete dev duel-1 --release a --release b')).toBe(
      'Give `--release` or `--no-release` once.',
    );
    expect(problem('vessel delete dev duel-1 --no-release=x')).toBe('`--no-release` takes no value.');
    expect(problem('formation show dev lobby --release a')).toContain('`formation.show` only reads');
    expect(problem('armada show dev duel --no-release')).toContain('`armada.show` only reads');
    // Reads of their own words do not know the flag at all.
    expect(problem('vessels dev --release a')).toContain('--release');
    // A title with spaces needs quotes: the rest is not taken for it.
    expect(problem('vessel delete dev duel-1 --release Season 4')).toContain('one argument too many');
  });
});
