/**
 * The page's script and styles. `npm run build` bundles them with esbuild
 * into dist/workspace/page/; when the bot runs from source (tsx, tests) the
 * same bundle is built in memory on first use, so both paths serve the same
 * code and nothing is fetched from a network.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface PageAssets {
  script: string;
  styles: string;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The built bundle beside this module, or a fresh in-memory build of page/main.ts. */
export async function loadPageAssets(): Promise<PageAssets> {
  try {
    const [script, styles] = await Promise.all([
      readFile(here('./page/app.js'), 'utf8'),
      readFile(here('./page/app.css'), 'utf8'),
    ]);
    return { script, styles };
  } catch {
    return buildPageAssets();
  }
}

/** Bundles the page from source (esbuild is a build-time dependency, loaded only here). */
async function buildPageAssets(): Promise<PageAssets> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [here('./page/main.ts')],
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
