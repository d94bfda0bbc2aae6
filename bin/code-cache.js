// V8's code cache for the bundle: the bytecode V8 made for svc's code in an earlier run, kept in
// $XDG_CACHE_HOME/svc/code/ and handed back to V8 when the same file loads again, so a command
// does not parse and compile its code afresh each time.
//
// What it saves: a 20,000-chunk `svc chat` took 290 ms without it and 240 ms with it, against a
// 160 ms node:http floor (21 alternating runs, 2026-11-27; bench/README.md). Most of the gain is
// in the functions V8 compiled while the command ran, which is why the cache is written when the
// process exits rather than right after a file is compiled (that measured no faster).
//
// How it stays safe:
// - Only bundle files whose names carry a content hash are cached (a name is one content), and
//   the folder is named for V8's version and the flags set: V8 refuses a cache made by another
//   version or with other flags, and svc then compiles as usual and writes a new one. A chunk
//   that imports an ES module (the image codecs) is left to Node.
// - A cache V8 refuses (damaged, another Node) is compiled over and replaced; one that cannot be
//   read or written is left alone: the cache only ever makes a start faster, never fails one.
// - Files are written whole under a temporary name and renamed, owner-only in an owner-only
//   folder, like everything svc keeps.
// - V8 checks the flags a cache was made with, so they are the same at every start: the launcher
//   sets a command's flags before anything loads (v8-flags.js), and each set has its folder.
// test/e2e/code-cache checks that a second run takes the cache as it is, that a damaged file is
// replaced, and that an unwritable folder changes nothing; Module._extensions is Node's
// long-standing (documented as deprecated, never removed) hook for how a file is loaded.
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

/** A bundle chunk: rolldown names each for its content (scripts/bundle.mjs). */
const HASHED_CHUNK = /-[A-Za-z0-9_-]{8}\.cjs$/;

/** $XDG_CACHE_HOME/svc/code/<V8 version>-<mode> (src/settings/paths.ts: cacheDir). */
function folderFor(env, mode) {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.cache');
  return join(base, 'svc', 'code', `${process.versions.v8}-${mode}`);
}

/** The require() a file of the bundle gets: the module's own, as Node would give it. */
function requireFor(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.cache = Module._cache;
  return require;
}

/**
 * Load the chunks of `bundleDir` through the code cache kept for `mode` (the V8 flags set:
 * v8-flags.js), and write the cache of any chunk that had none when the process exits.
 */
function useCodeCache(bundleDir, mode) {
  const folder = folderFor(process.env, mode);
  const plain = Module._extensions['.js'];
  const uncached = [];
  Module._extensions['.cjs'] = function loadChunk(module, filename) {
    if (dirname(filename) !== bundleDir || !HASHED_CHUNK.test(filename)) return plain(module, filename);
    const source = readFileSync(filename, 'utf8');
    // A chunk that imports an ES module (the image codecs) is left to Node: import() from a script
    // compiled here needs a loader option Node 20 still calls experimental, and warns about.
    if (source.includes('import(')) return plain(module, filename);
    const cacheFile = join(folder, `${basename(filename)}.v8`);
    let cachedData;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined; // none yet (or unreadable): compiled as usual
    }
    // The same wrapper Node puts around a CommonJS file, on the file's first line.
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) uncached.push({ script, cacheFile });
    script.runInThisContext().call(module.exports, module.exports, requireFor(module), module, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (uncached.length > 0) writeCaches(folder, bundleDir, uncached);
  });
}

function writeCaches(folder, bundleDir, uncached) {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch {
    return; // no cache folder (a read-only home): the next start compiles again
  }
  for (const { script, cacheFile } of uncached) {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, cacheFile);
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Nothing more to do: the next start tries again.
      }
    }
  }
  // Caches of chunks this build no longer has (an upgrade renames them all): removed, so the
  // folder holds one build's worth.
  try {
    const chunks = new Set(readdirSync(bundleDir));
    for (const name of readdirSync(folder)) {
      if (name.endsWith('.v8') && !chunks.has(name.slice(0, -3))) rmSync(join(folder, name), { force: true });
    }
  } catch {
    // Pruning is tidiness only.
  }
}

module.exports = { useCodeCache };
