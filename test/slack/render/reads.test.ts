import { describe, expect, it } from '@jest/globals';
import type { FormationView, RegionView } from '../../../src/changes/queries.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { messageProblems } from '../../../src/slack/limits.js';
import {
  renderApprovals,
  renderFormation,
  renderImages,
  renderRegion,
  renderVessels,
} from '../../../src/slack/render/reads.js';
import { APPROVAL, buttonsOf, MINUTE, makeChange, NOW, textOf } from './fixtures.js';

describe('renderImages', () => {
  const groups = [
    {
      image: 'game-server',
      tags: [
        { tag: '1.10.0', internalName: 'i1' },
        { tag: '1.2.0', internalName: 'i2' },
      ],
    },
    { image: 'lobby', tags: [{ tag: '0.3.1', internalName: 'i3' }] },
  ];

  it('shows a count header and one line per image with its tags in the given newest-first order', () => {
    const msg = renderImages('prod', groups);
    const text = textOf(msg);
    expect(msg.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Images in prod' } });
    expect(text).toContain('2 images, 3 tags in branch *prod*');
    expect(text).toContain('*game-server*  `1.10.0`, `1.2.0`\n*lobby*  `0.3.1`');
    expect(messageProblems(msg)).toEqual([]);
  });

  it('names the filter in the count', () => {
    expect(renderImages('prod', groups.slice(0, 1), 'game-server').text).toBe(
      '1 image, 2 tags in branch *prod* matching `game-server`',
    );
  });

  it('explains an empty branch, and an empty match with a hint to list everything', () => {
    expect(textOf(renderImages('qa', []))).toContain('No images in branch *qa*.\nCheck the branch name');
    const filtered = textOf(renderImages('qa', [], 'lobby:9.9'));
    expect(filtered).toContain('No images in branch *qa* matching `lobby:9.9`.');
    expect(filtered).toContain('`/harbor images qa`');
  });

  it('escapes names from the API', () => {
    const text = textOf(renderImages('p<r>', [{ image: 'a&b', tags: [{ tag: '<1>', internalName: 'x' }] }]));
    expect(text).toContain('*a&amp;b*  `&lt;1&gt;`');
    expect(text).toContain('branch *p&lt;r&gt;*');
  });
});

describe('renderVessels', () => {
  it('lists name, region, state with reason and formation, with a state tally', () => {
    const msg = renderVessels('prod', [
      { name: 'eu-1', region: 'europe', state: 'Running', formation: 'main', images: ['game-server:1.2.0'] },
      { name: 'eu-2', region: 'europe', state: 'Error (No suitable site found)', images: [] },
      { name: 'us-1', region: 'us', state: 'Running', formation: 'main', images: [] },
    ]);
    const text = textOf(msg);
    expect(text).toContain('3 vessels in environment *prod*: 2 Running, 1 Error');
    expect(text).toContain('*eu-1* · region `europe` · Running · `game-server:1.2.0` · formation `main`');
    expect(text).toContain('*eu-2* · region `europe` · Error (No suitable site found) · no formation');
  });

  it('says when there are none', () => {
    expect(renderVessels('dev', []).text).toBe('No vessels in environment *dev*.');
  });
});

describe('renderFormation', () => {
  const view: FormationView = {
    formation: {
      metadata: { name: 'main' },
      spec: {
        description: 'Main <fleet>',
        template: { spec: { containers: [{ name: 'server', image: 'game-server:1.2.0', branch: 'prod' }] } },
        vessels: [],
      },
    },
    containers: [{ name: 'server', image: 'game-server:1.2.0', branch: 'prod', internalName: 'img-1' }],
    vessels: [
      { index: 0, name: 'eu-1', region: 'europe', overrides: [], state: 'Running' },
      {
        index: 1,
        name: 'us-1',
        region: 'us',
        overrides: [{ container: 'server', image: 'game-server:1.3.0-rc1', args: ['--debug'] }],
        state: 'not created yet',
      },
    ],
  };

  it('lists vessels with indexes, region, state and overrides, and the template image', () => {
    const msg = renderFormation('prod', view);
    const text = textOf(msg);
    expect(text).toContain('Formation *main* in environment *prod*\nMain &lt;fleet&gt;');
    expect(text).toContain('*Template*\n• `server` image `game-server:1.2.0` from branch `prod`');
    expect(text).toContain('`#0` *eu-1* · region `europe` · Running');
    expect(text).toContain(
      '`#1` *us-1* · region `us` · not created yet · overrides: server: image `game-server:1.3.0-rc1`, args `--debug`',
    );
    expect(text).toContain('2 vessels: 1 not created yet, 1 Running');
  });

  it('says when the formation has no vessels', () => {
    const msg = renderFormation('prod', { ...view, vessels: [] });
    expect(textOf(msg)).toContain('This formation has no vessels.');
    expect(messageProblems(msg)).toEqual([]);
  });
});

describe('renderRegion', () => {
  const view: RegionView = {
    region: { metadata: { name: 'europe' }, spec: { displayName: 'Europe', types: [] } },
    types: [
      { name: 'baremetal', scheduling: 'Packed', locations: ['fra-1', 'ams-2'] },
      { name: 'cloud', scheduling: 'Distributed', locations: [] },
    ],
  };

  it('lists each type with scheduling and locations', () => {
    const text = textOf(renderRegion('prod', view));
    expect(text).toContain('Region *europe* in environment *prod*\nDisplay name: Europe');
    expect(text).toContain('*baremetal* · scheduling *Packed* · locations: `fra-1`, `ams-2`');
    expect(text).toContain('*cloud* · scheduling *Distributed* · no locations');
  });

  it('says when the region has no types', () => {
    expect(textOf(renderRegion('prod', { ...view, types: [] }))).toContain('This region has no types');
  });
});

describe('renderApprovals', () => {
  const waiting = (id: string) =>
    makeChange({ id, status: 'awaiting_approval', requirement: APPROVAL, expiresAt: NOW + 30 * MINUTE });

  it('says nothing is waiting when the list is empty', () => {
    const msg = renderApprovals([], NOW);
    expect(msg.text).toContain('Nothing is waiting for you');
    expect(buttonsOf(msg)).toEqual([]);
  });

  it('gives each change its summary, requester, expiry and Approve / Reject carrying its id', () => {
    const msg = renderApprovals([waiting('c1'), waiting('c2')], NOW);
    const text = textOf(msg);
    expect(msg.text).toBe('2 changes waiting for your approval');
    expect(text).toContain(
      '*Promote game-server:1.2.0 from dev to prod*\nRequested by <@U_REQ> · expires <!date^',
    );
    expect(text).toContain('(in 30 min)');
    expect(text).toContain('0 of 2 approvals so far · approvers: <@U_APP1>, <!subteam^S_OPS>');
    const buttons = buttonsOf(msg);
    expect(buttons.map((b) => [b.action_id, b.value])).toEqual([
      [CHANGE_ACTIONS.approve, 'c1'],
      [CHANGE_ACTIONS.reject, 'c1'],
      [CHANGE_ACTIONS.approve, 'c2'],
      [CHANGE_ACTIONS.reject, 'c2'],
    ]);
    expect(buttons[1]?.style).toBe('danger');
  });

  it('uses unique block ids and cuts long lists with "… and N more"', () => {
    const msg = renderApprovals(
      Array.from({ length: 40 }, (_, i) => waiting(`c${i}`)),
      NOW,
    );
    const ids = msg.blocks.map((b) => b.block_id).filter((id): id is string => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    expect(textOf(msg)).toContain('… and 25 more');
    expect(messageProblems(msg)).toEqual([]);
  });
});
