/**
 * The core speaks no Slack: the domain (changes, releases), policy, store, tails and API client
 * return data (who, what, when) and src/slack/render draws it. A Slack
 * mention, channel link, special mention or date token written in them would
 * end up stored or shown on a surface that is not Slack.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from '@jest/globals';

const CORE = [
  'changes',
  'releases',
  'policy',
  'store',
  'tails',
  'watches',
  'slack-budget',
  'gamefabric',
  'api-shapes',
  'errors',
  'probes',
];
const MARKUP = /<[@#!][^>\s]*/;

/** The code without comments: an example in a doc comment is not output. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

it('no Slack markup (<@user>, <#channel>, <!here>, <!date^…>) in the core', () => {
  const src = join(process.cwd(), 'src');
  const found: string[] = [];
  for (const dir of CORE) {
    for (const file of tsFiles(join(src, dir))) {
      code(readFileSync(file, 'utf8'))
        .split('\n')
        .forEach((line, i) => {
          const hit = MARKUP.exec(line);
          if (hit) found.push(`${relative(src, file)}:${i + 1}: ${hit[0]}`);
        });
    }
  }
  expect(found).toEqual([]);
});

it('the core imports nothing from src/slack, and tails nothing from src/changes', () => {
  const src = join(process.cwd(), 'src');
  const found: string[] = [];
  for (const dir of CORE) {
    for (const file of tsFiles(join(src, dir))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/from '([^']+)'/g)) {
        const spec = match[1] as string;
        if (/(^|\/)slack\//.test(spec) && spec.startsWith('.'))
          found.push(`${relative(src, file)} -> ${spec}`);
        if (dir === 'tails' && /(^|\/)changes\//.test(spec)) found.push(`${relative(src, file)} -> ${spec}`);
      }
    }
  }
  expect(found).toEqual([]);
});
