import { describe, expect, it } from '@jest/globals';
import type { KnownBlock } from '@slack/types';
import type { Usage } from '../../../src/slack/grammar/command.js';
import { FORM_IDS, HELP_TOPICS, renderForm } from '../../../src/slack/grammar/forms.js';
import { parseCommand } from '../../../src/slack/grammar/parse.js';
import { escapeMrkdwn, messageProblems } from '../../../src/slack/limits.js';
import { renderHelp, renderUsage, resolveHelpTopic } from '../../../src/slack/render/help.js';

// All the mrkdwn and plain text in a message's blocks, for text assertions.
function blockText(blocks: readonly KnownBlock[]): string {
  return blocks
    .flatMap((b) => {
      if (b.type === 'section' || b.type === 'header') return [b.text?.text ?? ''];
      if (b.type === 'context') return b.elements.map((e) => ('text' in e ? e.text : ''));
      return [];
    })
    .join('\n');
}

describe('renderHelp', () => {
  it('overview lists every form (except help itself) grouped by topic, within limits', () => {
    const message = renderHelp('/harbor');
    expect(messageProblems(message)).toEqual([]);
    const text = blockText(message.blocks);
    for (const id of FORM_IDS.filter((f) => f !== 'help')) {
      expect(text).toContain(escapeMrkdwn(renderForm(id, '/harbor')));
    }
    for (const title of ['Images', 'Vessels', 'Formations', 'Regions', 'Logs', 'Releases', 'Approvals']) {
      expect(text).toContain(`*${title}*`);
    }
    expect(text.indexOf('*Images*')).toBeLessThan(text.indexOf('*Approvals*'));
    expect(text).toContain('`/harbor help &lt;topic&gt;`');
    expect(message.text).toContain('/harbor vessels &lt;env&gt;');
  });

  it('uses the configured command name everywhere', () => {
    const message = renderHelp('/hm', 'logs');
    expect(JSON.stringify(message)).not.toContain('/harbor');
    expect(blockText(message.blocks)).toContain('`/hm logs dev lobby-1 --follow --lines 100`');
  });

  it.each(HELP_TOPICS.map((t) => [t]))(
    'topic %s shows each of its forms with an example, within limits',
    (topic) => {
      const message = renderHelp('/harbor', topic);
      expect(messageProblems(message)).toEqual([]);
      expect(blockText(message.blocks)).toContain('Example: `/harbor ');
    },
  );

  it('formation topic explains overrides and lists each flag', () => {
    const text = blockText(renderHelp('/harbor', 'formations').blocks);
    expect(text).toContain('each `--container` starts an override');
    expect(text).toContain('• `--args "&lt;arg&gt; &lt;arg&gt;..."`');
    expect(text).toContain(
      'Example: `/harbor formation add dev lobby lobby-3 eu-central --container game-server --image game-server:1.2.0 --args "--mode ranked"`',
    );
    expect(text).toContain('_Opens a form._');
  });

  it('resolves aliases, singulars, case and whole commands to a topic', () => {
    expect(resolveHelpTopic('Formation')).toBe('formations');
    expect(resolveHelpTopic('formation add')).toBe('formations');
    expect(resolveHelpTopic('promote')).toBe('images');
    expect(resolveHelpTopic('scheduling')).toBe('regions');
    expect(resolveHelpTopic('nope')).toBeUndefined();
    expect(resolveHelpTopic('constructor')).toBeUndefined();
    expect(renderHelp('/harbor', 'vessel').blocks[0]).toMatchObject({
      text: { text: '/harbor help: Vessels' },
    });
  });

  it('an unknown topic gets the overview with a note listing the topics', () => {
    const message = renderHelp('/harbor', 'deploy');
    expect(messageProblems(message)).toEqual([]);
    const text = blockText(message.blocks);
    expect(text).toContain(
      'There is no help topic `deploy`; topics are images, vessels, formations, regions, armadas, logs, watches, freezes, releases, approvals, history, help, home, shortcut.',
    );
    expect(text).toContain('*Formations*');
    expect(blockText(renderHelp('/harbor', 'fromations').blocks)).toContain('Did you mean `formations`?');
  });

  it('escapes and cuts a hostile topic', () => {
    const message = renderHelp('/harbor', `<!channel> ${'x'.repeat(5000)}`);
    expect(messageProblems(message)).toEqual([]);
    expect(JSON.stringify(message)).not.toContain('<!channel>');
  });

  it('parses `help <topic>` into what renderHelp takes', () => {
    const parsed = parseCommand('help formation add');
    expect(parsed).toEqual({ ok: true, command: { kind: 'help', topic: 'formation add' } });
  });
});

describe('renderUsage', () => {
  const usage: Usage = {
    problem: '`<image>:<tag>` needs a tag, e.g. game-server:1.2.0',
    forms: ['/harbor promote <image>:<tag> from <source-branch> to <target-branch>'],
    example: '/harbor promote game-server:1.2.0 from dev to prod',
    suggestion: 'Did you mean `/harbor promote game-server:1.2.0 from dev to prod`?',
  };

  it('shows the problem, the suggestion, the forms in code and the example', () => {
    const message = renderUsage('/harbor', usage);
    expect(messageProblems(message)).toEqual([]);
    const text = blockText(message.blocks);
    expect(text).toContain('`&lt;image&gt;:&lt;tag&gt;` needs a tag, e.g. game-server:1.2.0');
    expect(text).toContain('Did you mean `/harbor promote game-server:1.2.0 from dev to prod`?');
    expect(text).toContain(
      '```/harbor promote &lt;image&gt;:&lt;tag&gt; from &lt;source-branch&gt; to &lt;target-branch&gt;```',
    );
    expect(text).toContain('Example: `/harbor promote game-server:1.2.0 from dev to prod`');
    expect(message.text).toContain('needs a tag');
  });

  it('stays within limits for every usage the parser gives on a set of bad inputs', () => {
    const bad = [
      'vessel dev',
      'formation',
      'formation add dev lobby l-3 eu --image x',
      'logs dev x --lines 0',
      'zzz',
      'promote gs from a to b',
      `release ${'y'.repeat(3000)}`,
      `vessels ${'<&>'.repeat(2000)} more`,
    ];
    for (const text of bad) {
      const parsed = parseCommand(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(messageProblems(renderUsage('/harbor', parsed.usage))).toEqual([]);
    }
  });

  it('copes with a usage without forms or example, and with huge fields', () => {
    expect(messageProblems(renderUsage('/harbor', { problem: 'x', forms: [] }))).toEqual([]);
    const huge: Usage = {
      problem: 'p'.repeat(10000),
      forms: Array.from({ length: 200 }, () => 'f'.repeat(300)),
      example: 'e'.repeat(10000),
      suggestion: 's'.repeat(10000),
    };
    expect(messageProblems(renderUsage('/harbor', huge))).toEqual([]);
  });
});
