/**
 * The embedded simulator (no GAMEFABRIC_URL: local mode and demos) marks the
 * demo's bad build, dev game-server:1.0.0, as crashing on start (issue 42),
 * so a guarded rollout can be tried on it as local mode's help says.
 */
import { expect, it } from '@jest/globals';
import { silentLogger } from '../../src/runtime/logger.js';
import { internalImageName } from '../../src/simulator/index.js';
import { connectHostingApi } from '../../src/startup/hosting-api.js';

it('the embedded simulator starts with dev game-server:1.0.0 crashing on start', async () => {
  const api = await connectHostingApi(
    { timeoutMs: 5000, vesselApiVersion: 'formation/v1beta1' },
    silentLogger,
  );
  try {
    // Marking another image (and unmarking it) answers with every image marked crashing.
    const res = await fetch(`${api.simulatorUrl}/_sim/crashing-images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ branch: 'dev', image: 'none' }),
    });
    expect(await res.json()).toEqual({
      [`dev/${internalImageName('dev', 'game-server', '1.0.0')}`]: "exit code 1 (the demo's bad build)",
    });
  } finally {
    await api.stop();
  }
});
