/**
 * The process's entry: turn on Node's compile cache, then start
 * (startup/run.ts). Nothing else may be imported statically here: a static
 * import is compiled before this module's first line runs, so only what is
 * imported after the cache is on loads from it.
 *
 * The cache (V8's compiled code for each module, kept by Node in a folder)
 * spares a replica from compiling the bundle again at every start
 * (docs/memory.md). It is used only when running from the build
 * (dist/main.js): `npm run build` fills dist/.compile-cache, so the image ships
 * it warm; from source (tsx, tests) nothing is written. A folder Node cannot
 * write, or a cache from another Node version, only costs the time it would
 * have saved. NODE_COMPILE_CACHE, if set, is Node's own and wins (Node turned
 * the cache on before this line, and ignores a second folder).
 */
// A namespace import: on a Node without the function, run.ts still gets to say which Node is needed.
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';

if (import.meta.url.endsWith('/dist/main.js')) {
  nodeModule.enableCompileCache?.(fileURLToPath(new URL('.compile-cache/', import.meta.url)));
}
const { run } = await import('./startup/run.js');
await run(process.argv.slice(2));
