/**
 * Labelled lines of a preview: a person line (who made a change) names them
 * as a mention; anything that is not a user id stays literal text, so a
 * value can never smuggle a mention or a link into the message.
 */
import { expect, it } from '@jest/globals';
import { lineBlocks } from '../../../src/slack/render/preview-blocks.js';

const text = (blocks: unknown) => JSON.stringify(blocks);

it('a person line shows the user id as a mention, as a field and in the long form', () => {
  expect(text(lineBlocks([{ label: 'Made by', value: 'U0ALICE', person: true }]))).toContain('<@U0ALICE>');
  const long = [
    { label: 'Rolls back', value: `change c1: ${'x'.repeat(300)}` },
    { label: 'Made by', value: 'W0BOB', person: true },
  ];
  expect(text(lineBlocks(long))).toContain('*Made by:* <@W0BOB>');
});

it('a person line that is not a user id, or a plain line holding one, stays escaped text', () => {
  expect(text(lineBlocks([{ label: 'Made by', value: '<!channel>', person: true }]))).toContain(
    '&lt;!channel&gt;',
  );
  expect(text(lineBlocks([{ label: 'Note', value: 'U0ALICE' }]))).not.toContain('<@U0ALICE>');
});
