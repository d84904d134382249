/**
 * Jest's TypeScript transform: esbuild strips the types, file by file.
 * Type-checking is `npm run typecheck`'s job (tsc over the whole program), so
 * the tests only need JavaScript; ts-jest (used before) did the same with isolatedModules
 * (which tsconfig.json sets) but loads the TypeScript compiler in every
 * worker and transpiles ~10x slower, which a clean clone (a cold jest cache)
 * pays for every file. Source maps go back to jest so stack traces name .ts lines.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { transformSync, version } from 'esbuild';

// The compiler options that change emitted JavaScript, read from tsconfig.json as tsc reads them.
const tsconfig = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8'));
const { target, useDefineForClassFields } = tsconfig.compilerOptions;
const tsconfigRaw = { compilerOptions: { target, useDefineForClassFields } };
const salt = `${version}${JSON.stringify(tsconfigRaw)}`;

export default {
  getCacheKey(source, path, options) {
    return createHash('sha1')
      .update(salt)
      .update(path)
      .update(String(options.supportsStaticESM))
      .update(source)
      .digest('hex');
  },
  process(source, path, options) {
    const result = transformSync(source, {
      loader: 'ts',
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target: 'node22',
      sourcemap: 'external',
      sourcefile: path,
      tsconfigRaw,
    });
    return { code: result.code, map: result.map };
  },
};
