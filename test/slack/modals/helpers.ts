/**
 * Shared set-up for the modal tests: a simulator on loopback with a real
 * client, and a stand-in for Slack's `view.state.values` built from a view the
 * way Slack would (initial values kept, the user's answers on top).
 */

import type { InputBlock, ModalView, PlainTextOption } from '@slack/types';
import { formQueries } from '../../../src/changes/form-queries.js';
import { createGameFabricClient, type GameFabricClient } from '../../../src/gamefabric/client.js';
import { READ_BUDGET_DEFAULTS, ReadBudget } from '../../../src/read-budget/read-budget.js';
import { ManualClock } from '../../../src/runtime/clock.js';
import { type Simulator, type SimulatorData, startSimulator } from '../../../src/simulator/index.js';
import type { ModalMetadata } from '../../../src/slack/ids.js';
import type { ModalDeps, ViewStateValues } from '../../../src/slack/modals/index.js';

export const BRANCHES = ['dev', 'prod'] as const;

export interface World {
  sim: Simulator;
  client: GameFabricClient;
  deps: ModalDeps;
}

/** A simulator (demo data unless `data`) and a client that does not retry (failures show at once). */
export async function startWorld(
  data?: SimulatorData,
  /** HARBOR_BRANCHES; default none: every branch the API lists. */
  branches?: readonly string[],
): Promise<World> {
  const clock = new ManualClock();
  const sim = await startSimulator({ port: 0, clock, logLinesPerSecond: 0, ...(data ? { data } : {}) });
  const client = createGameFabricClient({
    baseUrl: sim.url,
    auth: { token: sim.token },
    clock,
    retry: { maxAttempts: 1 },
  });
  return {
    sim,
    client,
    deps: {
      queries: formQueries(client, new ReadBudget({ clock, ...READ_BUDGET_DEFAULTS }), branches),
    },
  };
}

/** Metadata as the command listener would write it. */
export function meta(kind: ModalMetadata['kind'], extra: Partial<ModalMetadata> = {}): ModalMetadata {
  return { kind, channel: 'C0123', ...extra };
}

/** The input blocks of a view, by block id. */
export function inputs(view: ModalView): Map<string, InputBlock> {
  const out = new Map<string, InputBlock>();
  for (const b of view.blocks) if (b.type === 'input' && b.block_id) out.set(b.block_id, b as InputBlock);
  return out;
}

/** The input block `blockId`; throws naming the ids there are when it is missing. */
export function input(view: ModalView, blockId: string): InputBlock {
  const block = inputs(view).get(blockId);
  if (!block) throw new Error(`no input block ${blockId}; have ${[...inputs(view).keys()].join(', ')}`);
  return block;
}

/** The option values of a select block. */
export function optionValues(view: ModalView, blockId: string): string[] {
  const el = input(view, blockId).element as { options?: PlainTextOption[] };
  return (el.options ?? []).map((o) => o.value ?? '');
}

/** The preselected value of a select block, if any. */
export function initialOption(view: ModalView, blockId: string): string | undefined {
  return (input(view, blockId).element as { initial_option?: PlainTextOption }).initial_option?.value;
}

/**
 * `view.state.values` as Slack would send it after the user set `answers`
 * (block id -> text or option value; null clears). Selects answer with the
 * option's text taken from the view, as Slack does; a type-ahead (external
 * select) takes any value, as its options come from the listener.
 */
export function fill(view: ModalView, answers: Record<string, string | null> = {}): ViewStateValues {
  const values: ViewStateValues = {};
  for (const [id, block] of inputs(view)) {
    const el = block.element as {
      type: string;
      action_id: string;
      initial_value?: string;
      initial_option?: PlainTextOption;
      options?: PlainTextOption[];
    };
    const answer = id in answers ? answers[id] : undefined;
    if (el.type === 'static_select') {
      const chosen =
        answer === null
          ? undefined
          : answer === undefined
            ? el.initial_option
            : el.options?.find((o) => o.value === answer);
      if (answer && !chosen) throw new Error(`${id} has no option ${answer}`);
      values[id] = {
        [el.action_id]: {
          type: el.type,
          selected_option: chosen ? { value: chosen.value ?? '', text: chosen.text } : null,
        },
      };
    } else if (el.type === 'external_select') {
      // A type-ahead can land on any value its options listener offers; the test names it.
      const chosen = answer === null ? undefined : answer === undefined ? el.initial_option : undefined;
      const selected = chosen
        ? { value: chosen.value ?? '', text: chosen.text }
        : answer
          ? { value: answer, text: { type: 'plain_text' as const, text: answer } }
          : null;
      values[id] = { [el.action_id]: { type: el.type, selected_option: selected } };
    } else {
      const value = answer === null ? null : (answer ?? el.initial_value ?? null);
      values[id] = { [el.action_id]: { type: el.type, value } };
    }
  }
  return values;
}
