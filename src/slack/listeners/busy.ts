/**
 * What a request refused for overload hears, in its ack where Slack lets the
 * ack carry it: a command's ack is an ephemeral answer; a submission's ack
 * marks the modal's first input (the modal stays open, so nothing typed is
 * lost), or pushes a small modal when it has no input; a click's ack carries
 * nothing, so listen.ts sends it the same text as an ephemeral note.
 */
export const BUSY_TEXT = 'Harbormaster is busy, try again in a few seconds.';

/** The ack body that tells the user "busy" on `surface` (undefined for clicks). */
export function busyAck(
  surface: 'command' | 'click' | 'submit',
  view?: { blocks?: readonly unknown[] },
): object | undefined {
  if (surface === 'command') return { response_type: 'ephemeral', text: BUSY_TEXT };
  if (surface === 'click') return undefined;
  const input = view?.blocks?.find(
    (b): b is { block_id: string } =>
      typeof b === 'object' &&
      b !== null &&
      (b as { type?: unknown }).type === 'input' &&
      typeof (b as { block_id?: unknown }).block_id === 'string',
  );
  if (input) return { response_action: 'errors', errors: { [input.block_id]: BUSY_TEXT } };
  return {
    response_action: 'push',
    view: {
      type: 'modal',
      title: { type: 'plain_text', text: 'Busy' },
      close: { type: 'plain_text', text: 'Back' },
      blocks: [{ type: 'section', text: { type: 'plain_text', text: BUSY_TEXT } }],
    },
  };
}
