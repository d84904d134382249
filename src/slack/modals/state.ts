/**
 * Reading `view.state.values`. Blocks are looked up by block id only: action
 * ids may change between reloads (a new id makes Slack drop a stale
 * selection), so the first element of a block is the one that counts.
 */
import type { ViewStateValue, ViewStateValues } from './types.js';

/** The suffix of the free-text block that accompanies a select whose list was cut. */
export const TYPED_SUFFIX = '.typed';

function element(values: ViewStateValues, blockId: string): ViewStateValue | undefined {
  const block = values[blockId];
  return block ? Object.values(block)[0] : undefined;
}

/** The trimmed text or selected value of a block; undefined when empty or absent. */
export function readBlock(values: ViewStateValues, blockId: string): string | undefined {
  const el = element(values, blockId);
  const raw = el?.selected_option?.value ?? el?.value ?? undefined;
  const trimmed = raw?.trim();
  return trimmed ? trimmed : undefined;
}

/** The raw (untrimmed) text of a block, for fields where the exact input matters (args). */
export function readRaw(values: ViewStateValues, blockId: string): string | undefined {
  const el = element(values, blockId);
  return el?.selected_option?.value ?? el?.value ?? undefined;
}

/** A choice: what the user typed in the fallback block wins over the select. */
export function readChoice(values: ViewStateValues, blockId: string): string | undefined {
  return readBlock(values, `${blockId}${TYPED_SUFFIX}`) ?? readBlock(values, blockId);
}

/** Block ids present in the state, in the order Slack sent them. */
export function blockIds(values: ViewStateValues): string[] {
  return Object.keys(values);
}

/** What a text field shows after a reload: the user's text if the block was there, else `fallback`. */
export function textInitial(values: ViewStateValues, blockId: string, fallback?: string): string | undefined {
  return values[blockId] ? readRaw(values, blockId) : fallback;
}
