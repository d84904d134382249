/**
 * Jest's own runtime, with V8's code cache for the modules it compiles and
 * one read of each file per worker.
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
 *
 * Jest also reads every module's file again for every test file (its file
 * cache lives as long as one test file): about 90 ms of an end-to-end file's
 * CPU here, ~1,250 reads (docs/test-suite.md). Files are read once per worker
 * instead. A package's files do not change under a running jest; a source
 * file may (watch mode), so its size and modification time are checked each
 * time and a changed file is read again.
 */
const { readFileSync, statSync } = require('node:fs');
const { sep } = require('node:path');
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

const PACKAGES = `${sep}node_modules${sep}`;
/** path -> { stamp, buffer, source }: a file's bytes and (once asked for) text, for this worker's test files. */
const files = new Map();

function stampOf(filename) {
  if (filename.includes(PACKAGES)) return '';
  const stats = statSync(filename);
  return `${stats.size}:${stats.mtimeMs}`;
}

function read(filename) {
  const stamp = stampOf(filename);
  let file = files.get(filename);
  if (!file || file.stamp !== stamp) {
    file = { stamp, buffer: readFileSync(filename), source: undefined };
    files.set(filename, file);
  }
  return file;
}

const Runtime = require('jest-runtime').default;

module.exports = class RuntimeWithCaches extends Runtime {
  constructor(...args) {
    super(...args);
    // Jest's file cache for this test file; it starts with the test file's own text, read by jest-runner.
    const fileCache = this.fileCache;
    fileCache.readFileBuffer = (filename) => read(filename).buffer;
    fileCache.readFile = (filename) => {
      const given = fileCache.strings.get(filename);
      if (given !== undefined) return given;
      const file = read(filename);
      file.source ??= file.buffer.toString();
      return file.source;
    };
  }
};
