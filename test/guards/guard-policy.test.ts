/**
 * Where a guard may be asked for and declined (issue 42): the policy's
 * `guard:` validated at start with the rule and the reason named; at
 * request, `--guard` and `--no-guard` judged against the change's own rule,
 * each refusal saying which flag, why and what would do, and nothing stored;
 * the same refusals in a form's words (its Guard field) for a form to show;
 * `--no-guard` where the rule says optional leaves the change unguarded
 * (no guard after its apply); the grammar takes the flags on rollouts only.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { RequestInput } from '../../src/changes/engine/options.js';
import { GuardRefusedError } from '../../src/changes/errors.js';
import { UserError } from '../../src/errors/user-error.js';
import { PolicyError, parsePolicy } from '../../src/policy/index.js';
import { parseCommand } from '../../src/slack/grammar/parse.js';
import { applied, click, type Harness, origin, startHarness, storeKinds } from '../changes/harness.js';

const POLICY = `
rules:
  - name: dev-rollouts
    operations: [armada.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 15m }
  - name: dev-sets
    operations: [armadaset.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 10m, optional: true }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

const MINUTE = 60_000;

const problems = (yaml: string): readonly string[] => {
  try {
    parsePolicy(yaml, { resolveGroup: async () => [] });
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyError);
    return (error as PolicyError).problems;
  }
  throw new Error('expected the policy to be refused');
};

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('the policy file', () => {
  it('refuses a guard on a rule that governs no rollout, a window over a day, and a malformed one', () => {
    expect(
      problems(`
rules:
  - operations: [armada.scale]
    guard: { within: 15m }
  - operations: [armada.image]
    guard: { within: 2d }
  - operations: [armadaset.image]
    guard: { within: 15 }
  - operations: [image.promote]
    guard: { within: 15m, optional: yes please }
  - operations: [formation.*]
    guard: 15m
`),
    ).toEqual([
      "rules[0].guard: guards only roll-outs of a build (image.promote, armada.image, armadaset.image), and this rule's operations match none of them",
      'rules[1].guard.within: expected at most 24h (a guard watches one rollout), got "2d"',
      'rules[2].guard.within: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got 15',
      'rules[3].guard.optional: expected true or false',
      'rules[4].guard: expected {within: 15m} or {within: 15m, optional: true}',
    ]);
  });

  it('guards only the rollouts of a rule that also governs other operations', () => {
    const policy = parsePolicy(
      `
rules:
  - name: all
    operations: ['*']
    guard: { within: 90s }
`,
      { resolveGroup: async () => [] },
    );
    expect(policy.requirement('armada.image', { environment: 'dev', armada: 'duel' }).guard).toEqual({
      withinMs: 90_000,
      optional: false,
    });
    expect(policy.requirement('armada.scale', { environment: 'dev', armada: 'duel' }).guard).toBeUndefined();
  });
});

describe('the grammar', () => {
  const ok = (text: string) => {
    const r = parseCommand(text);
    if (!r.ok) throw new Error(`expected ${text} to parse: ${r.usage.problem}`);
    return r.command;
  };
  const usage = (text: string) => {
    const r = parseCommand(text);
    if (r.ok) throw new Error(`expected ${text} to be refused`);
    return r.usage.problem;
  };

  it('reads --guard and --no-guard on the rollouts of a build', () => {
    expect(ok('armada image dev duel game-server:1.1.0 --guard 15m')).toMatchObject({
      kind: 'change',
      operation: 'armada.image',
      guard: { withinMs: 15 * MINUTE },
    });
    expect(ok('armadaset image dev arena game-server:1.1.0 --no-guard')).toMatchObject({
      guard: { off: true },
    });
    expect(ok('promote game-server:1.2.0 from dev to prod --guard=1h')).toMatchObject({
      operation: 'image.promote',
      guard: { withinMs: 60 * MINUTE },
    });
  });

  it('refuses them elsewhere and when given wrongly, saying how', () => {
    expect(usage('armada scale dev duel --min 2 --guard 15m')).toBe(
      '`--guard` goes with a typed rollout of a build (`promote`, `armada image`, `armadaset image`), not `armada.scale`.',
    );
    expect(usage('armada image dev duel game-server:1.1.0 --guard')).toBe(
      '`--guard` needs a duration after it: 90s, 30m, 2h or 1d (seconds, minutes, hours or days).',
    );
    expect(usage('armada image dev duel game-server:1.1.0 --guard soon')).toBe(
      '`--guard`: expected a duration like 90s, 30m, 2h or 1d (seconds, minutes, hours or days), got "soon".',
    );
    expect(usage('armada image dev duel game-server:1.1.0 --guard 2d')).toBe(
      '`--guard`: expected at most 24h (a guard watches one rollout), got `2d`.',
    );
    expect(usage('armada image dev duel game-server:1.1.0 --guard 15m --no-guard')).toBe(
      'Give one of `--guard` or `--no-guard`, once.',
    );
  });
});

describe.each(storeKinds)('at request (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const ask = (
    operation: 'armada.image' | 'armadaset.image',
    environment: string,
    guard?: RequestInput['guard'],
    tag = operation === 'armada.image' ? '1.1.0' : '1.2.0',
  ) =>
    h.engine.request({
      operation,
      input: {
        environment,
        name: operation === 'armada.image' ? 'duel' : 'arena',
        image: 'game-server',
        tag,
      },
      requester: 'U1',
      origin,
      ...(guard ? { guard } : {}),
    } as RequestInput);

  it('refuses what the rule does not allow, storing nothing', async () => {
    h = await startHarness({ store: kind, policy: POLICY });
    expect(await refusal(ask('armada.image', 'dev', { off: true }))).toBe(
      '`--no-guard` is refused: the policy rule dev-rollouts guards every such rollout for 15m and does not make it optional. Request it without `--no-guard`.',
    );
    expect(await refusal(ask('armada.image', 'dev', { withinMs: 5 * MINUTE }))).toBe(
      '`--guard 5m` is refused: the policy rule dev-rollouts guards such rollouts for 15m, and a guard may be made longer, not shorter. Give `--guard 15m` or more, or leave it out.',
    );
    expect(await refusal(ask('armada.image', 'prod', { withinMs: 15 * MINUTE }))).toBe(
      '`--guard` is refused: the policy rule everything-else sets no guard for this rollout, so there is none to ask for. Ask whoever maintains the policy to add `guard: {within: 15m}` to that rule (docs/policy.md), or request it without `--guard`.',
    );
    expect(await refusal(ask('armada.image', 'prod', { off: true }))).toContain(
      'sets no guard for this rollout, so there is none to decline',
    );
    expect(await h.store.listChanges({})).toEqual([]);
    const audit = await h.store.queryAudit({});
    expect(audit.filter((a) => a.action === 'refused')).toHaveLength(4);
  });

  it('words each refusal for a form too: the Guard field and none, never the flags', async () => {
    h = await startHarness({ store: kind, policy: POLICY });
    const formWords = async (p: Promise<unknown>): Promise<string> => {
      try {
        await p;
      } catch (err) {
        expect(err).toBeInstanceOf(GuardRefusedError);
        const said = (err as GuardRefusedError).formMessage;
        expect(said).not.toContain('--');
        return said;
      }
      throw new Error('expected a refusal');
    };
    expect(await formWords(ask('armada.image', 'dev', { off: true }))).toBe(
      "Guard `none` is refused: the policy rule dev-rollouts guards every such rollout for 15m and does not make it optional. Leave Guard empty for the rule's 15m, or give a longer window.",
    );
    expect(await formWords(ask('armada.image', 'dev', { withinMs: 5 * MINUTE }))).toBe(
      'Guard `5m` is refused: the policy rule dev-rollouts guards such rollouts for 15m, and a guard may be made longer, not shorter. Give 15m or more, or leave Guard empty.',
    );
    expect(await formWords(ask('armada.image', 'prod', { withinMs: 15 * MINUTE }))).toBe(
      'Guard is refused: the policy rule everything-else sets no guard for this rollout, so there is none to ask for. Leave Guard empty, or ask whoever maintains the policy to add `guard: {within: 15m}` to that rule (docs/policy.md).',
    );
    expect(await formWords(ask('armada.image', 'prod', { off: true }))).toContain(
      'Guard `none` is refused: the policy rule everything-else sets no guard for this rollout, so there is none to decline.',
    );
    expect(await h.store.listChanges({})).toEqual([]);
  });

  it('takes a longer window, and leaves an optional guard off with --no-guard', async () => {
    h = await startHarness({ store: kind, policy: POLICY });
    const longer = await ask('armada.image', 'dev', { withinMs: 30 * MINUTE });
    expect(longer.guard).toEqual({ withinMs: 30 * MINUTE, rule: 'dev-rollouts' });
    expect(longer.preview.notes.at(-1)).toBe(
      'Guarded: rolled back automatically if its servers do not become Ready, or it goes Degraded, within 30 min (policy rule dev-rollouts).',
    );
    const optedOut = await ask('armadaset.image', 'dev', { off: true });
    expect(optedOut.guard).toBeUndefined();
    expect(optedOut.preview.notes.some((n) => n.startsWith('Guarded'))).toBe(false);
    applied(await h.engine.confirm(click(optedOut.id)));
    expect(await h.store.getGuard(optedOut.id)).toBeUndefined();
    expect(await h.store.listOpenGuards(10)).toEqual([]);
    // Unsaid, the optional guard applies.
    const guarded = applied(
      await h.engine.confirm(click((await ask('armadaset.image', 'dev', undefined, '1.0.0')).id)),
    );
    expect(await h.store.getGuard(guarded.id)).toMatchObject({
      state: 'watching',
      withinMs: 10 * MINUTE,
      rule: 'dev-sets',
    });
  });
});
