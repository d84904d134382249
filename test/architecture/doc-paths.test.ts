/**
 * docs/architecture.md is the page a newcomer reads first: every source path
 * it names must exist, or it sends them to a file that moved. A path with a
 * slash resolves from the repository root when it starts with a top-level
 * folder (`src/`, `test/`, `bench/`, `docs/`), else from `src/` (`slack/...`,
 * `changes/...`), wherever it stands. A bare file name (`listen.ts`) resolves
 * from the folders its paragraph names, or in the table that follows
 * "Inside `slack/`:", from the folder its row is about.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = process.cwd();
const DOC = 'docs/architecture.md';
const RECIPES_DOC = 'docs/recipes.md';
const TOP = ['src', 'test', 'bench', 'docs', 'examples', '.ci'];
const SRC_DIRS = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const FIRST = [...TOP, ...SRC_DIRS].map((d) => d.replace('.', '\\.')).join('|');
/** `changes/engine.ts`, `test/e2e/slack/`, `slack/grammar/parse*.ts` (not `x/y` in a word or URL). */
const SLASHED = new RegExp(`(?<![\\w./@-])(?:${FIRST})/(?:[\\w*.-]+/?)*`, 'g');
/** A backquoted bare file name: `listen.ts`, `parse*.ts`. */
const BARE = /`([\w*.-]+\.(?:ts|md|json|yml|css))`/g;

interface Mention {
  line: number;
  path: string;
  /** Folders (relative to the root) a relative path may start from, in order. */
  bases: string[];
}

/** Whether `path` (a `*` stands for any characters in one name) exists under `base`. */
function exists(base: string, path: string): boolean {
  const full = join(ROOT, base, path);
  if (!path.includes('*')) return existsSync(full);
  const dir = dirname(full);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  const name = new RegExp(`^${path.split('/').pop()?.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`);
  return readdirSync(dir).some((entry) => name.test(entry));
}

function slashedBases(path: string): string[] {
  return TOP.includes(path.split('/')[0] ?? '') ? [''] : ['src'];
}

/** Every path the doc names, with where it may resolve from. */
function mentions(text: string): Mention[] {
  const found: Mention[] = [];
  const lines = text.split('\n');
  let tableBase: string | undefined;
  let fence: 'src' | 'other' | undefined;
  let paragraph: { start: number; lines: string[] } = { start: 0, lines: [] };

  const flush = () => {
    const body = paragraph.lines.join('\n');
    const dirs = [...body.matchAll(SLASHED)].map((m) => {
      const p = m[0];
      const base = TOP.includes(p.split('/')[0] ?? '') ? p : `src/${p}`;
      return p.endsWith('/') ? base.replace(/\/$/, '') : dirname(base);
    });
    paragraph.lines.forEach((line, i) => {
      for (const m of line.matchAll(SLASHED))
        found.push({ line: paragraph.start + i + 1, path: m[0], bases: slashedBases(m[0]) });
      for (const m of line.matchAll(BARE))
        if (m[1]) found.push({ line: paragraph.start + i + 1, path: m[1], bases: dirs });
    });
    paragraph = { start: 0, lines: [] };
  };

  for (const [i, line] of lines.entries()) {
    // The layer tree: a fenced block opening with `src/`; each entry's first word is a path in src/.
    if (line.startsWith('```')) {
      fence = fence ? undefined : lines[i + 1] === 'src/' ? 'src' : 'other';
    } else if (fence === 'src') {
      const entry = /^\s+([\w.-]+\.\w+)\s/.exec(line)?.[1];
      if (entry) found.push({ line: i + 1, path: entry, bases: ['src'] });
    }
    const inside = /^Inside `([\w/-]+)\/`:/.exec(line);
    if (inside?.[1]) tableBase = `src/${inside[1]}`;
    if (line.startsWith('|') && tableBase) {
      flush();
      const cells = line.split('|');
      const folders = [...(cells[1] ?? '').matchAll(/`([\w-]+)\/`/g)].map((m) => m[1] ?? '');
      const rowDirs = folders.map((f) => `${tableBase}/${f}`);
      for (const f of folders) found.push({ line: i + 1, path: `${f}/`, bases: [tableBase] });
      for (const m of line.matchAll(SLASHED))
        found.push({ line: i + 1, path: m[0], bases: slashedBases(m[0]) });
      for (const m of line.matchAll(BARE))
        if (m[1]) found.push({ line: i + 1, path: m[1], bases: [...rowDirs, tableBase] });
      continue;
    }
    if (line.startsWith('#')) tableBase = undefined;
    if (line.trim() === '' || line.startsWith('#')) {
      flush();
      continue;
    }
    if (paragraph.lines.length === 0) paragraph.start = i;
    paragraph.lines.push(line);
  }
  flush();
  return found.sort((a, b) => a.line - b.line);
}

describe(`${DOC} names only paths that exist`, () => {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const all = mentions(text);

  it('names source paths at all (the pattern still finds them)', () => {
    expect(all.length).toBeGreaterThan(40);
    expect(all.map((m) => m.path)).toEqual(
      expect.arrayContaining([
        'slack/handlers/reads.ts',
        'changes/engine.ts',
        'listen.ts',
        'bench/slack-ack.ts',
      ]),
    );
  });

  it('every one of them resolves', () => {
    const missing = all
      .filter((m) => !m.bases.some((base) => exists(base, m.path)))
      .map((m) => `${DOC}:${m.line}: ${m.path} (looked in ${m.bases.map((b) => b || '.').join(', ')})`);
    expect(missing).toEqual([]);
  });
});

/** The recipes (docs/recipes.md: a new operation, watch kind, Slack surface, store table): each lists the files to touch, and each of them exists. */
describe(`${RECIPES_DOC}'s recipes name files that exist`, () => {
  const text = readFileSync(join(ROOT, RECIPES_DOC), 'utf8');
  const all = mentions(text);
  const lines = text.split('\n');
  const RECIPES = [
    '## A new operation',
    '## A new watch kind',
    '## A new Slack surface',
    '## A new store table',
  ];

  it.each(RECIPES.map((r) => [r]))('%s', (heading) => {
    const start = lines.indexOf(heading);
    expect(start).toBeGreaterThan(0);
    const next = lines.findIndex((line, i) => i > start && /^#{2,3} /.test(line));
    const end = next < 0 ? lines.length : next;
    // Mentions carry 1-based line numbers; the heading is line start + 1.
    const named = all.filter((m) => m.line > start + 1 && m.line <= end);
    expect(named.length).toBeGreaterThanOrEqual(6);
    const missing = named.filter((m) => !m.bases.some((base) => exists(base, m.path))).map((m) => m.path);
    expect(missing).toEqual([]);
  });

  it('says that migration numbers differ per database', () => {
    expect(text).toMatch(/Migration\s+numbers differ per database/);
  });
});

describe('the path finder', () => {
  it('resolves from src/, the root, a table row and a paragraph, and catches what is not there', () => {
    const doc = [
      '```',
      'src/',
      '  main.ts    start-up',
      '  gone.ts    not here',
      '```',
      'See `changes/engine.ts` and test/e2e/slack/ and `src/main.ts` (startup/start-bot.ts).',
      '',
      'Inside `slack/`:',
      '',
      '| folder | does |',
      '|---|---|',
      '| `listeners/` | `listen.ts` and `nowhere.ts`; runtime/events-endpoint.ts is not there |',
      '',
      '1. `slack/runtime/tasks.ts` waits on the watch (`ack-watch.ts`), and `runtime/events-endpoint.ts` moved.',
    ].join('\n');
    const unresolved = mentions(doc)
      .filter((m) => !m.bases.some((base) => exists(base, m.path)))
      .map((m) => m.path);
    expect(mentions(doc).map((m) => m.path)).toEqual([
      'src/',
      'main.ts',
      'gone.ts',
      'changes/engine.ts',
      'test/e2e/slack/',
      'src/main.ts',
      'startup/start-bot.ts',
      'slack/',
      'listeners/',
      'runtime/events-endpoint.ts',
      'listen.ts',
      'nowhere.ts',
      'slack/runtime/tasks.ts',
      'runtime/events-endpoint.ts',
      'ack-watch.ts',
    ]);
    expect(unresolved).toEqual([
      'gone.ts',
      'runtime/events-endpoint.ts',
      'nowhere.ts',
      'runtime/events-endpoint.ts',
    ]);
  });
});
