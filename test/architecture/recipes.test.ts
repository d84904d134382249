/**
 * docs/recipes.md, followed once to the letter in a copy of the repository
 * (issue 39: "each recipe run once in a test that builds a throwaway
 * operation from it, not only a check that paths exist"). A new operation
 * (`region.spread`: descriptor, folder with id/schema/operation/index, the
 * folder registered, its grammar, undone by region.scheduling's restore); a
 * new watch rule (Suspended vessels) wired where the poll gathers trouble; a
 * new button with its id, route, handler and renderer; a new store table
 * with a migration in each list. The copy is compiled (the tables typed over
 * the ids accept the new operation), then tests written in the copy run each:
 * the grammar parses the command, the engine plans and applies it against the
 * simulator and change.rollback sets it back; the poller alerts on the rule;
 * a signed click through a real Bolt receiver is answered; each database,
 * migrated, holds exactly the declared tables. The new id is written in its
 * folder and the catalogue only, as the recipe promises.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const ROOT = process.cwd();
const RECIPES = readFileSync(join(ROOT, 'docs/recipes.md'), 'utf8');

/** Replaces `anchor` in `file` (of the copy) by `text`; the anchor must be there once. */
function edit(copy: string, file: string, anchor: string, text: string): void {
  const path = join(copy, file);
  const before = readFileSync(path, 'utf8');
  expect(before.split(anchor).length).toBe(2);
  writeFileSync(path, before.replace(anchor, text));
}

function write(copy: string, file: string, text: string): void {
  mkdirSync(join(copy, file, '..'), { recursive: true });
  writeFileSync(join(copy, file), text);
}

/** Runs a command in the copy; its output when it fails. */
function run(copy: string, args: string[]): { status: number | null; output: string } {
  const out = spawnSync(join(ROOT, 'node_modules/.bin/node'), args, {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 240_000,
  });
  return { status: out.status, output: `${out.stdout}\n${out.stderr}` };
}

const FOLDER = 'src/changes/operations/region.spread';

/** Step 1, Descriptor: an entry in operations/catalogue.ts keyed by the id. */
function descriptor(copy: string): void {
  edit(
    copy,
    'src/operations/catalogue.ts',
    "\n  'change.rollback': {",
    `\n  'region.spread': {
    kind: 'change',
    rollback: { inverse: 'region.scheduling' },
    action: (t) => \`spread the game servers of regions\${inEnv(t)}\`,
    whereToLook: (s) => \`the scheduling of region type \${s('type')} of region \${s('region')}\`,
    help: {
      'region.spread': {
        words: ['region', 'spread'],
        args: ['<env>', '<region>', '<type>'],
        flags: [],
        description: 'Spread the game servers of a region type over nodes (Distributed scheduling).',
        example: 'region spread dev eu-central baremetal',
        topic: 'regions',
      },
    },
  },
  'change.rollback': {`,
  );
}

/** Step 3, Its folder: id.ts, schema.ts, operation.ts, index.ts (undone by region.scheduling's restore). */
function folder(copy: string): void {
  write(copy, `${FOLDER}/id.ts`, "export const REGION_SPREAD = 'region.spread';\n");
  write(
    copy,
    `${FOLDER}/schema.ts`,
    `import type { z } from 'zod';
import { environmentName, name, record, regionName } from '../../requests/vocabulary.js';

export const spreadSchema = record({
  environment: environmentName(),
  region: regionName(),
  type: name('region type', 'baremetal'),
});

export type SpreadRequest = z.output<typeof spreadSchema>;
`,
  );
  write(
    copy,
    `${FOLDER}/operation.ts`,
    `import { schedulingOf } from '../../../api-shapes/resources.js';
import { UserError } from '../../../errors/user-error.js';
import { WorldMovedError } from '../../errors.js';
import type { OperationContext, OperationModule } from '../../operation.js';
import { parseRequest } from '../../requests/vocabulary.js';
import type { SchedulingSet } from '../region.scheduling/restore.js';
import { type SpreadRequest, spreadSchema } from './schema.js';

async function scheduling(ctx: OperationContext, r: SpreadRequest): Promise<string> {
  const region = await ctx.client.getRegion(r.environment, r.region);
  const type = region.spec.types.find((t) => t.name === r.type);
  if (!type) throw new UserError(\`Region \${r.region} has no type \${r.type}.\`, 'not_found');
  return schedulingOf(type);
}

export const spreadRegion: OperationModule<SpreadRequest> = {
  parse: (input) => parseRequest(spreadSchema, input),
  target: (r) => ({ environment: r.environment, region: r.region }),
  async plan(ctx, r) {
    const previous = await scheduling(ctx, r);
    if (previous === 'Distributed') throw new UserError(\`\${r.region}/\${r.type} is spread already.\`, 'noop');
    return {
      summary: \`Spread region type \${r.type} of \${r.region} (\${r.environment})\`,
      lines: [{ label: 'Scheduling', value: \`\${previous} → Distributed\` }],
      notes: [],
      destructive: false,
      facts: { previous },
    };
  },
  async apply(ctx, { request: r, preview }) {
    if ((await scheduling(ctx, r)) !== preview.facts.previous)
      throw new WorldMovedError('The scheduling changed since the preview; nothing was changed.');
    const { previous } = await ctx.client.setRegionTypeScheduling(r.environment, r.region, r.type, 'Distributed');
    const undo: SchedulingSet = { ...r, before: previous, after: 'Distributed' };
    return { summary: \`Spread region type \${r.type} of \${r.region}\`, lines: [], facts: {}, undo };
  },
  async verify(ctx, { request: r }) {
    return (await scheduling(ctx, r)) === 'Distributed' ? 'applied' : 'not_applied';
  },
};
`,
  );
  write(
    copy,
    `${FOLDER}/index.ts`,
    `import { undoneBy } from '../../rollback/restore.js';
import { operationEntry } from '../entry.js';
import { restoreScheduling, type SchedulingSet } from '../region.scheduling/restore.js';
import { REGION_SPREAD } from './id.js';
import { spreadRegion } from './operation.js';
import { spreadSchema } from './schema.js';

export const regionSpreadEntry = operationEntry({
  id: REGION_SPREAD,
  schema: spreadSchema,
  module: spreadRegion,
  undo: undoneBy(restoreScheduling, (u: SchedulingSet) => u),
});
`,
  );
}

/** Step 4, Register the folder: its entry in FOLDERS (changes/operations/folders.ts). */
function register(copy: string): void {
  const file = 'src/changes/operations/folders.ts';
  edit(
    copy,
    file,
    'export const FOLDERS = [',
    "import { regionSpreadEntry } from './region.spread/index.js';\n\nexport const FOLDERS = [\n  regionSpreadEntry,",
  );
}

/** Step 5, Grammar: its words in slack/grammar/parse-changes.ts, the id imported from the folder. */
function grammar(copy: string): void {
  const file = 'src/slack/grammar/parse-changes.ts';
  edit(
    copy,
    file,
    "  return ctx.subCommand('region', rest, {",
    `  return ctx.subCommand('region', rest, {
    spread: (words) => {
      const args = simplePositionals(ctx, REGION_SPREAD, words);
      if (!Array.isArray(args)) return args;
      const [environment, region, type] = args as [string, string, string];
      return ctx.ok({ kind: 'change', operation: REGION_SPREAD, input: { environment, region, type } });
    },`,
  );
  const text = readFileSync(join(copy, file), 'utf8');
  writeFileSync(
    join(copy, file),
    `import { REGION_SPREAD } from '../../changes/operations/region.spread/id.js';\n${text}`,
  );
}

/** Step 6, Test against the simulator: request, confirm, the simulator's state, rollback. */
function simulatorTest(copy: string): void {
  write(
    copy,
    'test/recipe/region-spread.test.ts',
    `import { afterEach, beforeEach, expect, it } from '@jest/globals';
import type { RequestInput } from '../../src/changes/engine/options.js';
import { parseCommand } from '../../src/slack/grammar/parse.js';
import { applied, click, type Harness, origin, startHarness } from '../changes/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ store: 'sqlite' });
});
afterEach(async () => {
  await h.close();
});

const scheduling = async () =>
  (await h.client.getRegion('dev', 'eu-central')).spec.types.find((t) => t.name === 'baremetal')?.template?.scheduling;

it('region.spread parses, plans, applies against the simulator and rolls back', async () => {
  const parsed = parseCommand('region spread dev eu-central baremetal');
  expect(parsed).toMatchObject({ ok: true, command: { kind: 'change', operation: 'region.spread' } });
  const command = (parsed as { command: { operation: string; input: unknown } }).command;
  expect(await scheduling()).toBe('Packed');

  const change = await h.engine.request({ operation: command.operation, input: command.input, requester: 'U1', origin } as RequestInput);
  expect(change.preview.summary).toBe('Spread region type baremetal of eu-central (dev)');
  const done = applied(await h.engine.confirm(click(change.id)));
  expect(done.undo).toEqual({ environment: 'dev', region: 'eu-central', type: 'baremetal', before: 'Packed', after: 'Distributed' });
  expect(await scheduling()).toBe('Distributed');

  const rollback = await h.engine.request({ operation: 'change.rollback', input: { changeIds: [done.id] }, requester: 'U1', origin } as RequestInput);
  expect(rollback.preview.summary).toBe(\`Roll back change \${done.id}: Set scheduling of region type baremetal in eu-central (dev) back to Packed\`);
  applied(await h.engine.confirm(click(rollback.id)));
  expect(await scheduling()).toBe('Packed');
  expect((await h.engine.get(done.id))?.rolledBackBy).toBe(rollback.id);
});
`,
  );
}

/** A new watch kind, steps 2-4: a rule in a file of its own, wired where the poll gathers observations, tested on lists. */
function watchRule(copy: string): void {
  write(
    copy,
    'src/watches/vessel-suspended.ts',
    `import type { Vessel } from '../api-shapes/resources.js';
import { type Observation, objectKey } from './observe.js';

export function suspendedVessels(vessels: readonly Vessel[], bad: readonly Observation[]): Observation[] {
  const already = new Set(bad.map(objectKey));
  return vessels
    .filter((v) => v.status?.state === 'Suspended' && !already.has(objectKey({ kind: 'Vessel', name: v.metadata.name })))
    .map((v) => ({ kind: 'Vessel', name: v.metadata.name, region: v.spec.region, state: 'Suspended', reason: 'it runs no game server' }));
}
`,
  );
  const poll = 'src/watches/poll.ts';
  edit(
    copy,
    poll,
    '  return [...servers, ...stuck];',
    '  return [...servers, ...stuck, ...suspendedVessels(listing.vessels, bad)];',
  );
  edit(
    copy,
    poll,
    "import { stuckVessels } from './vessel-stuck.js';",
    "import { suspendedVessels } from './vessel-suspended.js';\nimport { stuckVessels } from './vessel-stuck.js';",
  );
  write(
    copy,
    'test/recipe/watch-rule.test.ts',
    `import { afterAll, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import type { Store } from '../../src/store/types.js';
import { endReplicaStores, FakeApi, openReplicaStores, RecordingMessenger, watcherFor } from '../watches/harness.js';

afterAll(endReplicaStores);

it('a suspended vessel alerts once its trouble settled', async () => {
  const { stores, close } = await openReplicaStores('sqlite', 1);
  const store = stores[0] as Store;
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 14));
  const api = new FakeApi();
  const messenger = new RecordingMessenger();
  await store.addWatch({ workspace: 'T1', channel: 'C1', env: 'prod', createdBy: 'U1', createdAt: clock.now() });
  const watcher = watcherFor('r1', store, api, messenger, clock);
  api.setVessel('web-1', 'Suspended');
  for (let t = 0; t < 3 * 60_000; t += 10_000) {
    await watcher.tick();
    clock.advance(10_000);
  }
  expect(messenger.posts).toEqual([expect.objectContaining({ kind: 'Vessel', name: 'web-1', state: 'Suspended' })]);
  await close();
});
`,
  );
}

/** A new Slack surface, steps 1-4: its id, its route spread into the others, a handler, a renderer. */
function slackSurface(copy: string): void {
  const ids = join(copy, 'src/slack/ids.ts');
  writeFileSync(
    ids,
    `${readFileSync(ids, 'utf8')}\n/** The recipe's throwaway button. */\nexport const RECIPE_PING = 'recipe.ping';\n`,
  );
  write(
    copy,
    'src/slack/render/ping.ts',
    `import type { SlackMessage } from './message.js';

export function renderPing(user: string): SlackMessage {
  const text = \`Pong, <@\${user}>.\`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
`,
  );
  write(
    copy,
    'src/slack/handlers/ping.ts',
    `import { renderPing } from '../render/ping.js';
import type { Actor, PrivateReply } from './actor.js';

export async function answerPing(actor: Actor, reply: PrivateReply): Promise<void> {
  await reply(renderPing(actor.user));
}
`,
  );
  write(
    copy,
    'src/slack/listeners/ping.ts',
    `import { answerPing } from '../handlers/ping.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { RECIPE_PING } from '../ids.js';
import type { ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { slotted } from '../routes/work.js';

export function pingActionRoutes(): ActionRoutes {
  return {
    [RECIPE_PING]: ({ body, respond }: ClickArgs) => ({
      work: () => {
        const actor = clickActor(body);
        const reply = privateReplyVia(respond);
        return {
          name: 'click ping',
          actor,
          reply,
          steps: slotted(() => answerPing(actor, reply)),
          tally: { counter: 'interactions', action: RECIPE_PING },
        };
      },
    }),
  };
}
`,
  );
  const interactions = 'src/slack/listeners/interactions.ts';
  edit(
    copy,
    interactions,
    '    ...shareActionRoutes(ctx),',
    '    ...shareActionRoutes(ctx),\n    ...pingActionRoutes(),',
  );
  edit(
    copy,
    interactions,
    "import { shareActionRoutes } from './share.js';",
    "import { pingActionRoutes } from './ping.js';\nimport { shareActionRoutes } from './share.js';",
  );
  write(
    copy,
    'test/recipe/ping.test.ts',
    `import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from '../e2e/slack/bot-harness.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('a signed click on the new button is answered through the one listener path', async () => {
  await h.slash('promote game-server:1.1.0 from dev to staging');
  const response = await h.click(h.lastMessage(), 'recipe.ping', ALICE);
  expect(response.status).toBe(200);
  await h.settle();
  const pong = h.slack.ephemerals().filter((e) => e.user === ALICE.id && e.text === \`Pong, <@\${ALICE.id}>.\`);
  expect(pong).toHaveLength(1);
});
`,
  );
}

/** The next migration number of a list (its highest, plus one), zero-padded. */
function nextMigration(copy: string, dialect: 'sqlite' | 'postgres'): { n: number; file: string } {
  // The highest number taken plus one: numbers are reserved per issue, so a list may have gaps (issue 42 took 013 before 012).
  const n =
    Math.max(
      0,
      ...readdirSync(join(copy, 'src/store/migrations', dialect))
        .filter((f) => /^\d{3}-/.test(f))
        .map((f) => Number(f.slice(0, 3))),
    ) + 1;
  return { n, file: String(n).padStart(3, '0') };
}

/** A new store table, steps 1-2: its columns in store/tables.ts, a migration in each list, registered. */
function storeTable(copy: string): void {
  edit(
    copy,
    'src/store/tables.ts',
    'export const TABLES = {',
    'export const TABLES = {\n  recipe_notes: { id: text, body: text },',
  );
  const list = 'src/store/migrations/migration.ts';
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const { n, file } = nextMigration(copy, dialect);
    const name = `${dialect}${file}RecipeNotes`;
    write(
      copy,
      `src/store/migrations/${dialect}/${file}-recipe-notes.ts`,
      `import type { Migration } from '../types.js';

export const ${name}: Migration = {
  version: ${n},
  name: 'recipe-notes',
  sql: \`
CREATE TABLE recipe_notes (
  id TEXT PRIMARY KEY,
  body TEXT NOT NULL
);
\`,
};
`,
    );
    const array =
      dialect === 'sqlite'
        ? 'export const SQLITE_MIGRATIONS: readonly Migration[] = ['
        : 'export const POSTGRES_MIGRATIONS: readonly Migration[] = [';
    const text = readFileSync(join(copy, list), 'utf8');
    const start = text.indexOf(array);
    expect(start).toBeGreaterThan(0);
    const end = text.indexOf('];', start);
    writeFileSync(
      join(copy, list),
      `import { ${name} } from './${dialect}/${file}-recipe-notes.js';\n${text.slice(0, end)}  ${name},\n${text.slice(end)}`,
    );
  }
}

describe('docs/recipes.md, followed to the letter in a copy of the repository', () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'harbor-recipe-'));
    const copied = [
      'src',
      'scripts',
      'test/support',
      'test/changes/harness.ts',
      'test/watches/harness.ts',
      'test/e2e/slack/bot-harness.ts',
    ];
    for (const path of [...copied, 'test/store/tables-match-migrations.test.ts'])
      cpSync(join(ROOT, path), join(copy, path), { recursive: true });
    for (const file of ['package.json', 'jest.config.js']) cpSync(join(ROOT, file), join(copy, file));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));
    writeFileSync(
      join(copy, 'tsconfig.json'),
      JSON.stringify({ ...tsconfig, include: ['src', 'test/recipe'] }),
    );
    descriptor(copy);
    folder(copy);
    register(copy);
    grammar(copy);
    simulatorTest(copy);
    watchRule(copy);
    slackSurface(copy);
    storeTable(copy);
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('names each step it follows', () => {
    for (const step of [
      '1. **Descriptor**',
      '3. **Its folder**',
      '4. **Register the folder**',
      '5. **Grammar**',
      '6. **Test**',
    ])
      expect(RECIPES).toContain(step);
  });

  it('compiles: the tables typed over the ids take the new operation', () => {
    const tsc = run(copy, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
    expect(tsc.status === 0 ? '' : tsc.output).toBe('');
  }, 240_000);

  /** What jest in the copy said about each test file: one run for all of them (its start-up is paid once). */
  let results: Map<string, string> | undefined;
  /** Runs the copy's tests once; `path`'s failure messages, or '' when it passed. */
  const jestIn = (path: string): string => {
    if (!results) {
      const out = join(copy, 'results.json');
      const paths = ['test/recipe', 'test/store/tables-match-migrations.test.ts'];
      const jest = run(copy, [
        '--experimental-vm-modules',
        '--no-warnings=ExperimentalWarning',
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        '--rootDir',
        copy,
        '--json',
        `--outputFile=${out}`,
        ...paths,
      ]);
      const report = JSON.parse(existsSync(out) ? readFileSync(out, 'utf8') : '{}') as {
        testResults?: { name: string; status: string; message: string }[];
      };
      results = new Map(
        (report.testResults ?? []).map((r) => [
          r.name.slice(copy.length + 1),
          r.status === 'passed' ? '' : r.message,
        ]),
      );
      if (results.size === 0) results.set('', jest.output);
    }
    return results.get(path) ?? `no result for ${path}: ${[...results.values()].join('\n')}`;
  };

  it('a new operation: parses, plans, applies against the simulator and rolls back', () => {
    expect(jestIn('test/recipe/region-spread.test.ts')).toBe('');
  }, 240_000);

  it('a new watch kind: the rule alerts through the poller', () => {
    expect(jestIn('test/recipe/watch-rule.test.ts')).toBe('');
  }, 240_000);

  it('a new Slack surface: a signed click through a real Bolt receiver is answered', () => {
    expect(jestIn('test/recipe/ping.test.ts')).toBe('');
  }, 240_000);

  it('a new store table: each database, migrated, holds exactly the declared tables', () => {
    expect(readFileSync(join(copy, 'src/store/migrations/migration.ts'), 'utf8')).toMatch(
      /RecipeNotes,\n\];[\s\S]*RecipeNotes,\n\];/,
    );
    expect(jestIn('test/store/tables-match-migrations.test.ts')).toBe('');
  }, 240_000);

  it('writes the id in its folder and the catalogue only', () => {
    const grep = spawnSync('grep', ['-rlF', "'region.spread'", 'src'], { cwd: copy, encoding: 'utf8' });
    expect(grep.stdout.trim().split('\n').sort()).toEqual([`${FOLDER}/id.ts`, 'src/operations/catalogue.ts']);
  });
});
