/**
 * The page's script and styles. `npm run build` bundles them with esbuild
 * into dist/workspace/page/; when the bot runs from source (tsx, tests) the
 * same bundle is built in memory on first use, so both paths serve the same
 * code and nothing is fetched from a network.
 */
import { readFile } from 'node:fs/promises';
import { projectFile, runningFromBuild } from '../runtime/project-files.js';

export interface PageAssets {
  script: string;
  styles: string;
}

/**
 * The bundle `npm run build` made, when the bot runs from that build; from
 * source, a fresh in-memory build of page/main.ts (a dist/ left from an older
 * build would serve an older page).
 */
export async function loadPageAssets(): Promise<PageAssets> {
  if (!runningFromBuild()) return buildPageAssets();
  const [script, styles] = await Promise.all([
    readFile(projectFile('dist/workspace/page/app.js'), 'utf8'),
    readFile(projectFile('dist/workspace/page/app.css'), 'utf8'),
  ]);
  return { script, styles };
}

/** Bundles the page from source (esbuild is a build-time dependency, loaded only here). */
async function buildPageAssets(): Promise<PageAssets> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [projectFile('src/workspace/page/main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    outdir: 'page',
    minify: false,
    logLevel: 'silent',
  });
  const text = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { script: text('.js'), styles: text('.css') };
}
