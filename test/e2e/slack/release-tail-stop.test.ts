/**
 * A release message lists its live tails; a tail that stops by itself (here:
 * its Vessel deleted) must leave that list without anyone clicking.
 */
import { afterEach, beforeEach, it } from '@jest/globals';
import { createGameFabricClient } from '../../../src/gamefabric/client.js';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { startTailBot, type TailBot } from '../../slack/tails/e2e-bot.js';
import { createStandaloneVessel } from '../../support/standalone-vessel.js';
import { shown } from './harness-extras.js';

let h: TailBot;
beforeEach(async () => {
  h = await startTailBot();
});
afterEach(async () => {
  await h.stop();
});

it('drops a tail whose Vessel was deleted from the release message', async () => {
  const client = createGameFabricClient({
    baseUrl: h.sim.url,
    auth: { token: h.sim.token },
    clock: h.simClock,
  });
  await createStandaloneVessel(client, 'dev', 'solo-9');
  await h.slash('release start Hotfix 9');
  await h.settle();
  const release = h.slack.channelMessages(TEST_CHANNEL.id)[0] as StoredMessage;
  const [record] = await h.running.core.store.listReleases({ status: 'open' });
  // The "Tail logs" button a follow-up in the release thread carries.
  const offer: StoredMessage = {
    ...release,
    blocks: [
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: TAIL_ACTIONS.start,
            text: { type: 'plain_text', text: 'Tail logs' },
            value: JSON.stringify({ environment: 'dev', vessel: 'solo-9', releaseId: record?.id }),
          },
        ],
      },
    ],
  };
  await h.click(offer, TAIL_ACTIONS.start);
  await h.pumpUntil(async () => (await h.tails()).length === 1, 'the tail to start');
  await h.pumpUntil(
    () => shown(h.message(release.ts)).includes('Live tails (1)'),
    'the release to list the tail',
  );

  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  await client.deleteVessel('dev', 'solo-9');
  await h.simClock.advance(3000); // past the simulator's termination: it ends the stream
  await h.pumpUntil(async () => (await h.tails())[0]?.status === 'stopped', 'the tail to stop');
  await h.pumpUntil(
    () => !shown(h.message(release.ts)).includes('Live tails (1)'),
    'the release to drop the tail',
  );
});
