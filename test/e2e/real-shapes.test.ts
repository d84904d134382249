/**
 * The bot's operations against the simulator in its real-shapes mode (issue
 * 12): looser reads, several Image objects per image:tag, branches with
 * display names, both Vessel apiVersions (and the client's fallback when one
 * is refused), an Error vessel the platform
 * retries, a redirecting token endpoint, and role rules with subresources.
 * Real parts over loopback: simulator, client, engine, store; one ManualClock.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { resolveBranch } from '../../src/changes/branches.js';
import type { Change, ClickOutcome } from '../../src/changes/change.js';
import { describeFailure } from '../../src/changes/describe-failure.js';
import { queryFormation, queryRegion, queryVessels } from '../../src/changes/queries.js';
import { ApiError, createGameFabricClient } from '../../src/gamefabric/client.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { DEMO_PASSWORD, DEMO_USERNAME, REAL_SHAPES } from '../../src/simulator/index.js';
import { failureText } from '../../src/slack/render/failure-text.js';
import { collectFollow, type Harness, origin, startHarness } from '../changes/harness.js';

const click = (changeId: string) => ({ changeId, user: 'U1', channel: 'C1', team: 'T1' });

function applied(out: ClickOutcome): Change {
  if (out.kind !== 'applied') throw new Error(`expected applied, got ${out.kind}: ${JSON.stringify(out)}`);
  return out.change;
}

describe('Harbormaster against the real shapes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ sim: { realShapes: true } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('reads vessels, a formation with a Passthrough port and a region with a template-less type', async () => {
    const vessels = await queryVessels(h.client, 'dev');
    expect(vessels.map((v) => v.name)).toContain(REAL_SHAPES.errorVessel);
    const formation = await queryFormation(h.client, 'dev', 'lobby');
    expect(formation.formation.spec.template?.spec.containers[0]?.ports).toEqual([
      { name: 'game', policy: 'Passthrough' },
    ]);
    const region = await queryRegion(h.client, 'dev', 'eu-central');
    expect(region.types.map((t) => [t.name, t.scheduling])).toEqual([
      ['baremetal', 'Packed'],
      ['cloud', 'Packed'],
    ]);
  });

  it('picks the newest of several images for one image:tag, and confirms the promotion in the target branch', async () => {
    const { image, tag } = REAL_SHAPES.duplicatedImage;
    expect(await h.client.listImages('dev', { image, tag })).toHaveLength(2);
    expect((await h.client.findImage('dev', image, tag)).metadata.name).toBe(REAL_SHAPES.newerImageName);

    const change = await h.engine.request({
      operation: 'image.promote',
      input: { image, tag, sourceBranch: 'dev', targetBranch: 'qa' },
      requester: 'U1',
      origin,
    });
    expect(change.preview.facts.imageName).toBe(REAL_SHAPES.newerImageName);
    // Nothing about a copy already there; only that no ImageUpdater watches qa.
    expect(change.preview.notes).toEqual([
      'No ImageUpdater rolls game-server out from qa: nothing restarts by itself.',
    ]);
    const done = applied(await h.engine.confirm(click(change.id)));
    expect(done.status).toBe('succeeded');
    expect(done.result?.summary).toBe('Promoted game-server:1.2.0 from dev to qa');
    const now = done.result?.lines.find((l) => l.label === 'Now in qa')?.value;
    expect(now).toMatch(/^img-[0-9a-f]{8}-[0-9a-f]{5}$/);
  });

  it('says "requested, not yet visible" when the target branch does not list the copy in time', async () => {
    // The target never shows the copy: this engine's client lists no images at all.
    const change = await h.engine.request({
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.1.0', sourceBranch: 'dev', targetBranch: 'qa' },
      requester: 'U1',
      origin,
    });
    const hidden = { ...h.client, listImages: async () => [] };
    const { ChangeEngine } = await import('../../src/changes/engine.js');
    const engine = new ChangeEngine({
      client: hidden,
      store: h.store,
      policy: h.policy,
      clock: h.clock,
      logger: silentLogger,
      replicaId: 'hidden',
      follow: { pollMs: 1000, timeoutMs: 30_000 },
    });
    let finished = false;
    const pending = engine.confirm(click(change.id)).finally(() => {
      finished = true;
    });
    // Let the bounded wait run out on the ManualClock: each time the apply is parked on both its
    // sleeps (the lease heartbeat and the visibility poll; the stubbed listing does no I/O), a
    // poll interval passes. While the promote call is on the wire only the heartbeat sleeps.
    while (!finished) {
      await Promise.race([pending, h.clock.whenSleeping(2)]);
      if (!finished) await h.clock.advance(1000);
    }
    const done = applied(await pending);
    expect(done.result?.summary).toBe(
      'Promotion of game-server:1.1.0 from dev to qa requested; not yet visible in qa',
    );
    expect(done.result?.facts.visible).toBe(false);
  });

  it("creates a vessel with formation/v1beta1, the apiVersion of the docs' example, in one POST", async () => {
    const change = await h.engine.request({
      operation: 'vessel.create',
      input: {
        environment: 'dev',
        name: 'solo-1',
        region: 'eu-central',
        containers: [
          {
            name: 'game-server',
            branch: 'dev',
            image: 'game-server:1.2.0',
            cpu: '250m',
            memory: '512Mi',
            ports: [{ name: 'game', containerPort: 7777, protocol: 'UDP', policy: 'Dynamic' }],
          },
        ],
      },
      requester: 'U1',
      origin,
    });
    const done = applied(await h.engine.confirm(click(change.id)));
    expect(done.status).toBe('succeeded');
    const posts = h.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/vessels'));
    expect(posts.map((r) => r.status)).toEqual([201]);
    expect(h.sim.state.getVessel('dev', 'solo-1')?.apiVersion).toBe('formation/v1beta1');
  });

  it('creates a vessel although the API refuses formation/v1beta1, retrying once with formation/v1', async () => {
    // The real API serves the docs' version; a refusing one is this test's choice, for the client's fallback.
    await h.close();
    h = await startHarness({ sim: { realShapes: true, refusedVesselApiVersions: ['formation/v1beta1'] } });
    const change = await h.engine.request({
      operation: 'vessel.create',
      input: {
        environment: 'dev',
        name: 'solo-1',
        region: 'eu-central',
        containers: [
          {
            name: 'game-server',
            branch: 'dev',
            image: 'game-server:1.2.0',
            cpu: '250m',
            memory: '512Mi',
            ports: [{ name: 'game', containerPort: 7777, protocol: 'UDP', policy: 'Dynamic' }],
          },
        ],
      },
      requester: 'U1',
      origin,
    });
    const done = applied(await h.engine.confirm(click(change.id)));
    expect(done.status).toBe('succeeded');
    const posts = h.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/vessels'));
    expect(posts.map((r) => r.status)).toEqual([400, 201]);
    expect(h.sim.state.getVessel('dev', 'solo-1')?.apiVersion).toBe('formation/v1');
    // Remembered: the next create goes straight to formation/v1.
    await h.client.createVessel('dev', {
      metadata: { name: 'solo-2' },
      spec: {
        region: 'eu-central',
        template: {
          spec: { containers: [{ name: 'gs', branch: 'dev', image: REAL_SHAPES.newerImageName }] },
        },
      },
    });
    expect(h.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/vessels'))).toHaveLength(3);
  });

  it('keeps following a vessel in Error (the platform retries) and shows its reason', async () => {
    const events = await collectFollow(
      h.clock,
      (async function* () {
        const { watchVessel, untilScheduled } = await import('../../src/changes/follow.js');
        yield* watchVessel(
          {
            client: h.client,
            clock: h.clock,
            logger: silentLogger,
            follow: { pollMs: 1000, timeoutMs: 5000 },
            environments: [],
          },
          'dev',
          REAL_SHAPES.errorVessel,
          untilScheduled,
        );
      })(),
      // The operation's own watch, not the engine's: no follow-up lease, so its poll alone sleeps.
      1,
    );
    expect(events[0]).toEqual({
      kind: 'progress',
      message: `Vessel ${REAL_SHAPES.errorVessel}: Error (No suitable site found); the platform retries placement, still watching`,
      // The last state seen, which the change's top message shows (issue 18, point 4).
      state: 'Error (No suitable site found)',
      vessel: { environment: 'dev', name: REAL_SHAPES.errorVessel },
    });
    expect(events.at(-1)?.kind).toBe('timeout');
    expect(events.some((e) => e.kind === 'failed')).toBe(false);
  });

  it('adds to and removes from a formation, and changes scheduling of a type without a template', async () => {
    const add = await h.engine.request({
      operation: 'formation.add',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-3', region: 'eu-central' },
      requester: 'U1',
      origin,
    });
    expect(applied(await h.engine.confirm(click(add.id))).status).toBe('succeeded');
    const remove = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-1' },
      requester: 'U1',
      origin,
    });
    expect(applied(await h.engine.confirm(click(remove.id))).status).toBe('succeeded');
    const scheduling = await h.engine.request({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
      requester: 'U1',
      origin,
    });
    expect(scheduling.preview.lines).toContainEqual({ label: 'Scheduling', value: 'Packed → Distributed' });
    expect(applied(await h.engine.confirm(click(scheduling.id))).status).toBe('succeeded');
    expect(h.sim.state.getRegion('dev', 'eu-central')?.spec.types[0]?.template?.scheduling).toBe(
      'Distributed',
    );
  });

  it('creates a region with its name as displayName when none is given', async () => {
    const change = await h.engine.request({
      operation: 'region.create',
      input: {
        environment: 'dev',
        name: 'us-east',
        types: [{ name: 'cloud', locations: ['nyc-1'], scheduling: 'Packed' }],
      },
      requester: 'U1',
      origin,
    });
    expect(change.preview.lines).toContainEqual({ label: 'Region', value: 'us-east' });
    expect(applied(await h.engine.confirm(click(change.id))).status).toBe('succeeded');
    expect(h.sim.state.getRegion('dev', 'us-east')?.spec.displayName).toBe('us-east');
  });

  it('resolves branches by name or display name, case-insensitively, and names the ones that exist', async () => {
    expect(await resolveBranch(h.client, 'Production', 'targetBranch')).toBe('prod');
    expect(await resolveBranch(h.client, 'development', 'sourceBranch')).toBe('dev');
    await expect(resolveBranch(h.client, 'staging', 'targetBranch')).rejects.toThrow(
      'No branch `staging` (the target branch). Branches: `dev` (Development), `prod` (Production), `qa` (Quality Assurance).',
    );
    await expect(resolveBranch(h.client, 'prod', 'targetBranch', ['dev'])).rejects.toThrow(
      'No branch `prod` (the target branch). Branches that Harbormaster may use (HARBOR_BRANCHES): `dev` (Development).',
    );
  });

  it('logs in through the redirecting token endpoint, and accepts client_id in a Basic header', async () => {
    const client = createGameFabricClient({
      baseUrl: h.sim.url,
      auth: { username: DEMO_USERNAME, password: DEMO_PASSWORD },
      clock: h.clock,
      retry: { maxAttempts: 1 },
    });
    expect((await client.listBranches()).map((b) => b.metadata.name)).toEqual(['dev', 'prod', 'qa']);
    expect(h.sim.requests.filter((r) => r.path.startsWith('/auth/')).map((r) => r.status)).toEqual([
      308, 200,
    ]);

    const basic = await fetch(`${h.sim.url}/auth/realms/gamefabric/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('api:').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'password',
        scope: 'openid email profile',
        username: DEMO_USERNAME,
        password: DEMO_PASSWORD,
      }).toString(),
    });
    expect(basic.status).toBe(200);
  });

  it('answers a 403 on vessel logs by role rules, and the bot names the permission the platform wants', async () => {
    h.sim.addServiceAccount({
      name: 'reader@demo.local',
      tokens: ['reader-token'],
      permissions: {},
      rules: [
        { apiGroups: ['formation'], resources: ['vessels'], verbs: ['get', 'list'], environments: ['dev'] },
      ],
    });
    const reader = createGameFabricClient({
      baseUrl: h.sim.url,
      auth: { token: 'reader-token' },
      clock: h.clock,
      retry: { maxAttempts: 1 },
    });
    expect((await reader.listVessels('dev')).length).toBeGreaterThan(0);
    const err = await reader.vesselLogs('dev', 'lobby-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
    expect(failureText(describeFailure(err, silentLogger))).toContain(
      'Ask an admin to grant the service account verb `get` on `vessels/logs` (API group formation) in environment dev.',
    );
    const branchScoped = await reader.listImages('prod').catch((e: unknown) => e);
    expect(failureText(describeFailure(branchScoped, silentLogger))).toContain(
      'verb `list` on `images` (API group container) in branch prod',
    );
  });

  it('names writes by the verbs a role can hold (post, patch), and narrows branches by the role’s scopes', async () => {
    h.sim.addServiceAccount({
      name: 'promoter@demo.local',
      tokens: ['promoter-token'],
      permissions: {},
      rules: [
        { apiGroups: ['container'], resources: ['images'], verbs: ['get', 'list'], scopes: ['dev'] },
        { apiGroups: ['armada'], resources: ['armadas'], verbs: ['get', 'list'], environments: ['dev'] },
      ],
    });
    const promoter = createGameFabricClient({
      baseUrl: h.sim.url,
      auth: { token: 'promoter-token' },
      clock: h.clock,
      retry: { maxAttempts: 1 },
    });
    expect((await promoter.listImages('dev')).length).toBeGreaterThan(0);
    const promotion = await promoter
      .createImagePromotion({
        apiVersion: 'container/v1',
        kind: 'ImagePromotion',
        metadata: { name: 'p-1', branch: 'prod' },
        spec: { branch: 'dev', imageName: 'img-1' },
      })
      .catch((e: unknown) => e);
    expect(failureText(describeFailure(promotion, silentLogger))).toContain(
      'verb `post` on `imagepromotions` (API group container) in branch prod',
    );
    const patch = await promoter
      .setDistribution(
        { kind: 'Armada', env: 'dev', name: 'duel', type: 'cloud' },
        { minReplicas: 0, bufferSize: 2, maxReplicas: 20 },
        { maxReplicas: 3 },
      )
      .catch((e: unknown) => e);
    expect(failureText(describeFailure(patch, silentLogger))).toContain(
      'verb `patch` on `armadas` (API group armada) in environment dev',
    );
  });
});
