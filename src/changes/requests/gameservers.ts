/** The request of gameserver.terminate. */
import type { z } from 'zod';
import { name, record } from './vocabulary.js';

export const terminateGameServerSchema = record({
  site: name('site', 'ni-prod-fra-02'),
  name: name('game server', 'duel-baremetal-0'),
});

export type TerminateGameServerRequest = z.output<typeof terminateGameServerSchema>;
export type TerminateGameServerInput = z.input<typeof terminateGameServerSchema>;
