/** Creates a Vessel outside any Formation (game-server 1.2.0 from dev), as several tests need one. */
import type { GameFabricClient } from '../../src/gamefabric/client.js';

/** A standalone Vessel `name` in `environment`, region eu-central, one game-server container. */
export async function createStandaloneVessel(
  client: Pick<GameFabricClient, 'findImage' | 'createVessel'>,
  environment: string,
  name: string,
): Promise<void> {
  const image = await client.findImage('dev', 'game-server', '1.2.0');
  await client.createVessel(environment, {
    metadata: { name, environment },
    spec: {
      region: 'eu-central',
      template: {
        spec: {
          containers: [
            {
              name: 'game-server',
              branch: 'dev',
              image: image.metadata.name,
              ports: [{ name: 'game', policy: 'Dynamic', containerPort: 7777, protocol: 'UDP' }],
              resources: { requests: { cpu: '250m', memory: '512Mi' } },
            },
          ],
        },
      },
    },
  });
}
