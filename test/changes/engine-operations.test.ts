import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../src/changes/errors.js';
import {
  applied,
  click,
  collectFollow,
  type Harness,
  LOBBY_9,
  origin,
  PROD_ONLY_TAG,
  startHarness,
  storeKinds,
} from './harness.js';

describe.each(storeKinds)('change engine operations (%s store)', (kind) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ store: kind });
  });
  afterEach(async () => {
    await h.close();
  });

  it('promotes an image after the requester confirms, and audits request, confirm, API calls and result', async () => {
    const change = await h.engine.request({
      operation: 'image.promote',
      input: { image: 'game-server', tag: PROD_ONLY_TAG, sourceBranch: 'prod', targetBranch: 'dev' },
      requester: 'U1',
      origin,
    });
    expect(change.status).toBe('pending');
    expect(change.requirement.mode).toBe('confirm');
    const internal = change.preview.lines.find((l) => l.label === 'Internal image name')?.value;
    expect(internal).toMatch(/^img-[0-9a-f]{8}$/);
    expect(change.preview.lines.find((l) => l.label === 'Already in dev')?.value).toBe('no');

    const done = applied(await h.engine.confirm(click(change.id)));
    expect(done.status).toBe('succeeded');
    expect(done.confirmedBy).toBe('U1');
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);

    const audit = await h.store.queryAudit({ changeId: change.id });
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['request', 'confirm', 'api_call', 'apply']),
    );
    const call = audit.find(
      (a) => a.action === 'api_call' && (a.params as { method: string }).method === 'createImagePromotion',
    );
    expect(call?.outcome).toBe('ok');
    expect(JSON.stringify(audit)).not.toContain(h.sim.token);
  });

  it('explains a missing image with the tags that do exist', async () => {
    await expect(
      h.engine.request({
        operation: 'image.promote',
        input: { image: 'game-server', tag: '9.9.9', sourceBranch: 'dev', targetBranch: 'prod' },
        requester: 'U1',
        origin,
      }),
    ).rejects.toThrow(
      /^No image game-server:9\.9\.9 in branch dev\. Tags of game-server in dev: 1\.2\.0, 1\.1\.0, 1\.0\.0\.$/,
    );
  });

  it('validates before any API call, naming each field with an example', async () => {
    const before = h.sim.requests.length;
    const err = await h.engine
      .request({
        operation: 'vessel.create',
        input: {
          environment: 'Dev',
          name: 'x_y',
          region: 'eu-central',
          containers: [
            {
              name: 'gs',
              branch: 'dev',
              image: 'game-server:1.2.0',
              cpu: '0.5',
              memory: '512MB',
              ports: [{ name: 'game', containerPort: 70000, protocol: 'SCTP' }],
            },
          ],
        },
        requester: 'U1',
        origin,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const fields = (err as ValidationError).problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'environment',
        'name',
        'containers[0].cpu',
        'containers[0].memory',
        'containers[0].ports[0].containerPort',
        'containers[0].ports[0].protocol',
      ]),
    );
    expect((err as Error).message).toMatch(
      /containers\[0\]\.cpu: "0\.5" is not a CPU quantity: use millicores with an m suffix, e\.g\. 250m/,
    );
    expect((err as Error).message).toMatch(/containers\[0\]\.ports\[0\]\.protocol: expected one of UDP, TCP/);
    expect(h.sim.requests.length).toBe(before);
  });

  it('creates a vessel and follows it until it is scheduled', async () => {
    const change = await h.engine.request({
      operation: 'vessel.create',
      input: LOBBY_9,
      requester: 'U1',
      origin,
    });
    expect(change.preview.lines.map((l) => l.value).join(' ')).toContain('game-server:1.2.0');
    const done = applied(await h.engine.confirm(click(change.id)));
    const vessel = h.sim.state.getVessel('dev', 'lobby-9');
    expect(vessel?.spec.template.spec.containers[0]?.image).toMatch(/^img-/);
    expect(vessel?.spec.template.spec.containers[0]?.resources?.requests).toEqual({
      cpu: '250m',
      memory: '512Mi',
    });
    const events = await collectFollow(h.clock, h.engine.follow(done));
    expect(events.at(-1)).toMatchObject({
      kind: 'done',
      message: expect.stringMatching(/lobby-9 is placed/),
    });
  });

  it('refuses to delete a vessel that belongs to a formation, pointing to the formation removal', async () => {
    await expect(
      h.engine.request({
        operation: 'vessel.delete',
        input: { environment: 'dev', vessel: 'lobby-1' },
        requester: 'U1',
        origin,
      }),
    ).rejects.toThrow(/belongs to formation lobby.*formation remove dev lobby lobby-1/);
  });

  it('deletes a standalone vessel after confirmation and follows it until it is gone', async () => {
    await h.client.createVessel('dev', {
      metadata: { name: 'solo', environment: 'dev' },
      spec: {
        region: 'eu-central',
        template: {
          spec: {
            containers: [
              {
                name: 'gs',
                branch: 'dev',
                image: (await h.client.findImage('dev', 'game-server', '1.2.0')).metadata.name,
              },
            ],
          },
        },
      },
    });
    const change = await h.engine.request({
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'solo' },
      requester: 'U1',
      origin,
    });
    expect(change.preview.destructive).toBe(true);
    const done = applied(await h.engine.confirm(click(change.id)));
    expect(h.sim.state.getVessel('dev', 'solo')?.status?.state).toBe('Terminating');
    const events = await collectFollow(h.clock, h.engine.follow(done));
    expect(events.at(-1)).toMatchObject({ kind: 'done', message: 'Vessel solo is gone' });
    expect(h.sim.state.getVessel('dev', 'solo')).toBeUndefined();
  });

  it('adds a vessel to a formation with an override; the controller creates it with the override', async () => {
    const change = await h.engine.request({
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-3',
        region: 'eu-central',
        overrides: [{ container: 'game-server', image: 'game-server:1.1.0', args: ['--mode', 'ranked'] }],
      },
      requester: 'U1',
      origin,
    });
    expect(change.preview.lists?.[0]?.items).toEqual([
      '0. lobby-1 (eu-central)',
      '1. lobby-2 (eu-central) with overrides',
    ]);
    const done = applied(await h.engine.confirm(click(change.id)));
    expect(done.result?.summary).toMatch(/at index 2/);
    const expected = (await h.client.findImage('dev', 'game-server', '1.1.0')).metadata.name;
    const formation = await h.client.getFormation('dev', 'lobby');
    expect(formation.spec.vessels[2]).toEqual({
      name: 'lobby-3',
      region: 'eu-central',
      override: { containers: [{ name: 'game-server', image: expected, args: ['--mode', 'ranked'] }] },
    });
    const events = await collectFollow(h.clock, h.engine.follow(done));
    expect(events.at(-1)?.kind).toBe('done');
    const vessel = h.sim.state.getVessel('dev', 'lobby-3');
    expect(vessel?.spec.template.spec.containers[0]).toMatchObject({
      image: expected,
      args: ['--mode', 'ranked'],
    });
    expect(vessel?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Formation', name: 'lobby' });
  });

  it('refuses a duplicate vessel name and an unknown override container', async () => {
    const base = { environment: 'dev', formation: 'lobby', region: 'eu-central' };
    await expect(
      h.engine.request({
        operation: 'formation.add',
        input: { ...base, vessel: 'lobby-2' },
        requester: 'U1',
        origin,
      }),
    ).rejects.toThrow('Formation lobby already has a vessel named lobby-2; pick another name.');
    await expect(
      h.engine.request({
        operation: 'formation.add',
        input: { ...base, vessel: 'lobby-4', overrides: [{ container: 'nope', args: ['x'] }] },
        requester: 'U1',
        origin,
      }),
    ).rejects.toThrow(/overrides\[0\]\.container: formation lobby has no container nope \(its containers: /);
  });

  it('removes a vessel from a formation and follows it until it is gone', async () => {
    const change = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-1' },
      requester: 'U1',
      origin,
    });
    expect(change.preview.facts.index).toBe(0);
    expect(change.preview.notes).toEqual([
      'The formation controller deletes vessel lobby-1. Vessel lobby-1, if allocated, gets a shutdown hint with a deadline (the notice set under Settings → Advanced → Shutdown Notification) and is stopped by then at the latest, with any players still on it; if not allocated, it stops at once.',
    ]);
    const done = applied(await h.engine.confirm(click(change.id)));
    expect((await h.client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name)).toEqual([
      'lobby-2',
    ]);
    const events = await collectFollow(h.clock, h.engine.follow(done));
    expect(events.at(-1)).toMatchObject({ kind: 'done', message: 'Vessel lobby-1 is gone' });
  });

  it('fails with what changed when the vessel was removed by someone else after the preview', async () => {
    const change = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
      requester: 'U1',
      origin,
    });
    await h.client.removeVesselFromFormation('dev', 'lobby', 'lobby-2');
    const out = await h.engine.confirm(click(change.id));
    expect(out.kind).toBe('failed');
    expect(out.change.error).toMatchObject({
      kind: 'user',
      problem: 'world_moved',
      text: expect.stringMatching(/no longer in formation lobby/),
    });
  });

  it('creates a region with Distributed scheduling', async () => {
    const change = await h.engine.request({
      operation: 'region.create',
      input: {
        environment: 'dev',
        name: 'us-east',
        displayName: 'US East',
        types: [{ name: 'cloud', locations: ['iad-1'], scheduling: 'distributed' }],
      },
      requester: 'U1',
      origin,
    });
    applied(await h.engine.confirm(click(change.id)));
    const region = await h.client.getRegion('dev', 'us-east');
    expect(region.spec.types[0]?.template?.scheduling).toBe('Distributed');
  });

  it("sets a region type's scheduling, previewing old -> new and the restart caveat", async () => {
    const change = await h.engine.request({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
      requester: 'U1',
      origin,
    });
    expect(change.preview.lines).toContainEqual({ label: 'Scheduling', value: 'Packed → Distributed' });
    expect(change.preview.notes.join(' ')).toMatch(
      /running game servers keep their earlier scheduling until restarted/,
    );
    applied(await h.engine.confirm(click(change.id)));
    const region = await h.client.getRegion('dev', 'eu-central');
    expect(region.spec.types.find((t) => t.name === 'baremetal')?.template?.scheduling).toBe('Distributed');
    await expect(
      h.engine.request({
        operation: 'region.scheduling',
        input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
        requester: 'U1',
        origin,
      }),
    ).rejects.toThrow(/already uses Distributed scheduling; nothing to change/);
  });
});
