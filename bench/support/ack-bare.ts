/** The bare Bolt app of the ack benchmark, in a process of its own (see bare-bolt.ts). */

import { TEST_BOT } from '../../src/workspace/identity.js';
import { SIGNING_SECRET } from '../../test/e2e/slack/bot-harness.js';
import { type BareBolt, startBareBolt } from './bare-bolt.js';
import { gcPausesSinceLast } from './gc-pauses.js';
import { serve } from './ipc.js';

let bare: BareBolt | undefined;
serve({
  start: async ({ slackApiUrl, appToken }: { slackApiUrl: string; appToken?: string }) => {
    bare = await startBareBolt({
      signingSecret: SIGNING_SECRET,
      token: TEST_BOT.token,
      slackApiUrl,
      ...(appToken ? { appToken } : {}),
    });
    return { eventsUrl: bare.eventsUrl };
  },
  /** GC pauses since the last call (the benchmark reads them around each measured burst). */
  gcPauses: () => gcPausesSinceLast(),
  stop: async () => {
    await bare?.stop();
  },
});
