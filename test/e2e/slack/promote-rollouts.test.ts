/**
 * What a promotion rolls out, end to end: the preview lists the ImageUpdaters
 * whose branch is the target and whose imageName is the image, with their
 * targets; once the promotion lands, the thread follows those rollouts to
 * Synced. A promotion nothing watches says so; environments the API will not
 * list fall back to the configured ones.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

describe('promotion rollouts', () => {
  it('lists the ArmadaSet the prod ImageUpdater rolls out and follows it after the promotion lands', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const preview = h.lastMessage();
    expect(shown(preview)).toContain(
      'will roll out to ArmadaSet arena (prod), by ImageUpdater arena-game-server',
    );
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    await waitForThreadReply(
      h,
      preview,
      /ArmadaSet arena \(prod\): every game server runs game-server:1.2.0: Synced/,
    );
    // The ImageUpdater's status shows what it applied (field names inferred).
    await h.slash('armadaset show prod arena');
    const show = h.slack.ephemerals().at(-1);
    expect(shown(show)).toMatch(
      /arena-game-server \(game-server in prod; Ready, last applied game-server:1\.2\.0 at \d{4}-/,
    );
    const image = h.sim.state.getArmadaSet('prod', 'arena')?.spec.template.spec.containers[0]?.image;
    expect(h.sim.state.listImages('prod').find((i) => i.metadata.name === image)?.spec.tag).toBe('1.2.0');
  });

  it('says a promotion of an older build is a downgrade for the targets that run a newer one', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.2.0 from dev to prod');
    await h.click(h.lastMessage(), CHANGE_ACTIONS.approve, BOB);
    await h.slash('promote game-server:1.1.0 from dev to prod');
    const text = shown(h.lastMessage());
    expect(text).toContain(
      'will roll out to ArmadaSet arena (prod), by ImageUpdater arena-game-server: a downgrade, it runs game-server:1.2.0 now',
    );
    expect(text).toContain(
      'This is a downgrade for ArmadaSet arena (prod): it runs game-server:1.2.0 now, and ImageUpdater arena-game-server will roll it back to game-server:1.1.0.',
    );
  });

  it('says when no ImageUpdater rolls the image out of the target branch', async () => {
    h = await startBotHarness();
    await h.slash('promote game-server:1.2.0 from dev to staging');
    expect(shown(h.lastMessage())).toContain(
      'No ImageUpdater rolls game-server out from staging: nothing restarts by itself.',
    );
  });

  it('asks the configured environments when the API will not list environments', async () => {
    h = await startBotHarness();
    h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/environments', status: 403 }]);
    await h.slash('promote game-server:1.2.0 from dev to prod');
    expect(shown(h.lastMessage())).toContain('will roll out to ArmadaSet arena (prod)');
  });
});
