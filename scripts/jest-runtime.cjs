/**
 * Jest's own runtime, with V8's code cache for the modules it compiles.
 *
 * Jest gives every test file a fresh module registry, so every file compiles
 * the same sources and node_modules (Bolt, the Web API client, express, zod...)
 * again: about half a second of CPU per end-to-end test file. V8 can reuse a
 * compilation in another context when handed the code cache it produced, and
 * node:vm takes one (`cachedData`), but jest-runtime does not pass it and has no
 * seam for it (its compile step is internal since Jest 30). So this worker's
 * node:vm `compileFunction` (CommonJS) and `SourceTextModule` (ES modules) are
 * wrapped to pass the cache. The cache is keyed by file name and source text,
 * lives in this worker's memory only, and a changed file simply compiles afresh:
 * what runs is byte for byte what jest would run.
 */
const vm = require('node:vm');

/** identifier -> { source, data }: the code cache of the last compilation of that file in this worker. */
const cache = new Map();

function cached(id, source) {
  const hit = id ? cache.get(id) : undefined;
  return hit && hit.source === source ? hit.data : undefined;
}

const compileFunction = vm.compileFunction;
vm.compileFunction = function compileFunctionWithCache(source, params, options = {}) {
  const id = options.filename;
  if (!id || options.cachedData || options.produceCachedData) return compileFunction(source, params, options);
  const cachedData = cached(id, source);
  const fn = compileFunction(
    source,
    params,
    cachedData ? { ...options, cachedData } : { ...options, produceCachedData: true },
  );
  if (!cachedData && fn.cachedDataProduced) cache.set(id, { source, data: fn.cachedData });
  return fn;
};

vm.SourceTextModule = class SourceTextModuleWithCache extends vm.SourceTextModule {
  constructor(source, options = {}) {
    const id = options.identifier;
    const cachedData = options.cachedData ? undefined : cached(id, source);
    super(source, cachedData ? { ...options, cachedData } : options);
    if (id && !cachedData && !options.cachedData) cache.set(id, { source, data: this.createCachedData() });
  }
};

module.exports = require('jest-runtime').default;
