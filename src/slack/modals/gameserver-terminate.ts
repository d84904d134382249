/**
 * The terminate-game-server form: the Site and the game server's name, as
 * the docs ask for them (getting-started/terminating-game-servers.md). Sites
 * are in no environment, so the form asks no place first. The preview that
 * follows is destructive and asks for a confirmation of its own.
 */
import type { TerminateGameServerInput } from '../../changes/requests/gameservers.js';
import { contextBlock, textInput } from './blocks.js';
import { addError } from './field-errors.js';
import { readBlock } from './state.js';
import type { ModalDefinition } from './types.js';

/** Block ids of the terminate-game-server form. */
export const GAMESERVER_TERMINATE_BLOCKS = { site: 'site', name: 'name' } as const;

const B = GAMESERVER_TERMINATE_BLOCKS;

export const gameServerTerminateModal: ModalDefinition<TerminateGameServerInput> = {
  submit: 'Preview',
  fallbackBlock: B.name,

  async build(_meta, _deps, values) {
    return [
      contextBlock(
        'Terminates one game server that does not shut down by itself; an allocated match on it ends. You see a preview before anything changes.',
      ),
      textInput({
        blockId: B.site,
        label: 'Site',
        hint: 'The Site the game server runs on (its cluster and namespace).',
        placeholder: 'ni-prod-fra-02',
        ...(readBlock(values, B.site) ? { initial: readBlock(values, B.site) } : {}),
      }),
      textInput({
        blockId: B.name,
        label: 'Game server',
        hint: 'Its pod name.',
        placeholder: 'duel-baremetal-0',
        ...(readBlock(values, B.name) ? { initial: readBlock(values, B.name) } : {}),
      }),
    ];
  },

  read(_meta, values) {
    const errors: Record<string, string> = {};
    const site = readBlock(values, B.site)?.trim();
    const name = readBlock(values, B.name)?.trim();
    if (!site) addError(errors, B.site, 'Give the Site the game server runs on.');
    if (!name) addError(errors, B.name, 'Give the game server’s name.');
    if (!site || !name) return { ok: false, errors, partial: { site, name } };
    return { ok: true, input: { site, name } };
  },

  blockFor(field) {
    if (field === 'site') return B.site;
    if (field === 'name') return B.name;
    return undefined;
  },
};
