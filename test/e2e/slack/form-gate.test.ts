/**
 * Issue 18, point 3: the policy is judged before a form opens, so a person it
 * refuses whatever they fill in learns it at once, by the rule's name, instead
 * of after a ten-field form and a Preview. No refusal names a server file.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ALICE, BOB, type BotHarness, SRE_GROUP, startBotHarness } from './bot-harness.js';
import { openedViewId } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const POLICY = `
version: 1
rules:
  - name: reads
    operations: [vessels.list, region.show, formation.show]
  - name: sre-prod-changes
    operations: [vessel.create, region.create]
    target: { environment: prod }
    requesters: { groups: [${SRE_GROUP}] }
  - name: prod-removals
    operations: [formation.remove]
    target: { environment: prod }
    approval: { required: 2, approvers: { groups: [${SRE_GROUP}] } }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

describe('a form the policy would refuse', () => {
  it('does not open: the refusal names the rule and who may, and no file path', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('vessel create prod', ALICE);
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
    const answer = h.ephemeralTexts(ALICE).at(-1) ?? '';
    expect(answer).toBe(
      `You are not allowed to create vessels in environment prod: policy rule \`sre-prod-changes\` lets only <!subteam^${SRE_GROUP}> do it; ask one of them to request it.`,
    );
    expect(answer).not.toMatch(/\.ya?ml|\//);
  });

  it('does not open when nobody could ever approve what it asks for', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('formation remove prod arena', BOB);
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
    expect(h.ephemeralTexts(BOB).at(-1)).toMatch(/^This change could never be approved.*`prod-removals`/);
  });

  it('opens for someone the policy allows', async () => {
    h = await startBotHarness({ policy: POLICY });
    await h.slash('vessel create prod', BOB);
    expect(openedViewId(h)).toBeTruthy();
  });

  it('opens when the answer turns on a field the form asks for', async () => {
    h = await startBotHarness({
      policy: POLICY.replace(
        'target: { environment: prod }',
        "target: { environment: prod, vessel: 'arena-*' }",
      ),
    });
    await h.slash('vessel create prod', ALICE);
    expect(openedViewId(h)).toBeTruthy();
  });
});
