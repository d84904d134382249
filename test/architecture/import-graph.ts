/**
 * The import graph of src/, read from the sources: every static `import` and
 * `export … from` with a relative specifier (type-only ones too: a cycle of
 * types still ties the files together), and `import('…')` expressions. A
 * specifier's `.js` resolves to the `.ts` beside it, as NodeNext does.
 * Small on purpose: a library (madge, dpdm) would pull a TypeScript parser
 * and a second resolver in for what forty lines do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** File (relative to `root`) -> the files it imports (relative to `root`). */
export type ImportGraph = Map<string, string[]>;

const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[\w*{},\s]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Strips comments so an import written in a comment is not read as one. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Reads every .ts file under `root` and the relative imports between them. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of tsFiles(root)) {
    const targets = new Set<string>();
    for (const match of code(readFileSync(file, 'utf8')).matchAll(SPECIFIER)) {
      const spec = (match[1] ?? match[2]) as string;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      targets.add(relative(root, target));
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

/** The cycles of `graph`: each strongly connected component of more than one file, or a file importing itself. */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative enough for a few hundred files by recursion.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    indexOf.set(file, index);
    low.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!indexOf.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, indexOf.get(next) as number));
      }
    }
    if (low.get(file) !== indexOf.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const top = stack.pop() as string;
      onStack.delete(top);
      component.push(top);
      if (top === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!indexOf.has(file)) visit(file);
  return cycles;
}
