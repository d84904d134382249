/**
 * Files shipped with the project (package.json, manifest.yml, examples/, the
 * built page), found from the running code. The bot runs from source
 * (src/…, tests and tsx) or from the bundle (dist/main.js and its chunks), so
 * a module's depth below the project differs; the project is the nearest
 * folder up that holds package.json.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    // No package.json above (a copied-out file): its own folder is the best guess left.
    if (dirname(dir) === dir) return from;
  }
}

const ROOT = findRoot(HERE);

/** A shipped file's path, `path` relative to the project (the image's /app). */
export function projectFile(path: string): string {
  return join(ROOT, path);
}

/** Whether this code is the production bundle (dist/) rather than the sources. */
export function runningFromBuild(): boolean {
  return HERE.startsWith(projectFile('dist') + sep) || HERE === projectFile('dist');
}
