/**
 * Every surface under the same rules (issue 30): the Home tab and type-ahead
 * go through the same authorization and Slack budget code as commands and
 * clicks, so a new surface cannot quietly skip either.
 *
 * - Form choices and type-ahead get their lists only from `Reads.formsFor`
 *   (changes/form-reads.ts), which judges each list as its read command
 *   through changes/authorize.ts; nothing in slack/ builds form queries of
 *   its own or asks the policy about a list.
 * - Type-ahead's list reads go through the API read budget (read-budget/).
 * - Home clicks are the change buttons' routes (the engine judges the
 *   clicker), and Home's own reads ask the engine, never the policy.
 * - Home redraws publish only through the workspace's views.publish gate
 *   (the Slack gateway's, slack/gateway); nothing else in slack/ calls views.publish.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every .ts file under src/<dir>, relative to src/. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(SRC, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(SRC, join(e.parentPath, e.name)));
}

const text = (file: string) => readFileSync(join(SRC, file), 'utf8');

it('form choices and type-ahead reach the API only through Reads.formsFor, which authorizes each list', () => {
  const graph = importGraph(SRC);
  // Reads hands out form queries only through formsFor, wrapped by the one authorization.
  const reads = text('changes/reads.ts');
  expect(reads).toMatch(/private readonly forms: FormQueries/);
  expect(reads).toMatch(/formsFor\(asker: Asker\): FormQueries \{\s*return authorizedFormQueries\(/);
  expect(reads).toMatch(/listAuthority\(asker: Asker\): ListAuthority/);
  expect(graph.get('changes/reads.ts')).toContain('changes/authorize.ts');
  // slack/ never builds form queries itself, nor judges a list against the policy on its own.
  for (const file of filesUnder('slack')) {
    const source = text(file);
    expect([file, /\bformQueries\(/.test(source)]).toEqual([file, false]);
    expect([file, /\.forms\.(suggest|vesselsIn|armadasIn|images|regions|namedIn)\(/.test(source)]).toEqual([
      file,
      false,
    ]);
  }
  // The type-ahead listener and every form fill ask formsFor.
  expect(text('slack/listeners/options.ts')).toMatch(/\.formsFor\(asker\)/);
  expect(text('slack/handlers/modal.ts')).toMatch(/\.formsFor\(formAsker\(/);
});

it('type-ahead list reads go through the API read budget', () => {
  const graph = importGraph(SRC);
  expect(graph.get('changes/form-queries.ts')).toContain('read-budget/read-budget.ts');
  const suggest = text('changes/form-queries.ts').split('suggest: async')[1]?.split('namedIn:')[0] ?? '';
  expect(suggest).toMatch(/budget\.read\(/);
  // Every list the suggestions read is read inside the budget's `list` helper.
  expect(suggest.match(/client\.list\w+\(/g)?.length).toBe(
    suggest.match(/list\(\(\) => client\.list\w+\(/g)?.length,
  );
});

it('Home clicks are the change buttons’ routes and Home reads ask the engine, not the policy', () => {
  const graph = importGraph(SRC);
  const fromHome = [...graph].filter(([from]) => from.startsWith('slack/home/')).flatMap(([, tos]) => tos);
  expect(fromHome.filter((to) => to.startsWith('policy/') || to === 'changes/authorize.ts')).toEqual([]);
  // The Home tab's buttons use the same action ids as the approvals list and change messages.
  expect(text('slack/home/render-home.ts')).toMatch(/renderApprovals\(/);
  // And their answers go through the one click reply, which knows the Home tab.
  expect(text('slack/listeners/interactions.ts')).toMatch(/clickReplyVia\(ctx, body, respond\)/);
});

it('Home redraws publish only through the workspace’s views.publish gate', () => {
  const graph = importGraph(SRC);
  expect(graph.get('slack/home/listeners.ts')).toContain('slack/gateway/gateway.ts');
  expect(graph.get('slack/gateway/gateway.ts')).toContain('slack-budget/method-gate.ts');
  const publishers = filesUnder('slack').filter(
    (f) =>
      /'views\.publish'/.test(text(f)) &&
      !f.startsWith('slack/gateway/') &&
      !f.startsWith('slack/runtime/slack-calls'),
  );
  expect(publishers).toEqual(['slack/home/listeners.ts']);
  // The publisher waits for a slot before it reads what to draw.
  expect(text('slack/home/publisher.ts')).toMatch(/await this\.o\.slot\(team\);[\s\S]*this\.o\.draw\(/);
});
