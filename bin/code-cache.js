// V8's code cache for the bundle: the bytecode V8 made for svc's code in an earlier run, kept in
// $XDG_CACHE_HOME/svc/code/ and handed back to V8 when the same file loads again, so a command
// does not parse and compile its code afresh each time.
//
// What it saves is measured by the stream case of the bench (bench/README.md, "V8's code cache").
// Most of the gain is in the functions V8 compiled while the command ran, which is why the cache
// is written when the process exits rather than right after a file is compiled.
//
// How it stays safe:
// - Only bundle files whose names carry a content hash are cached (a name is one content), each
//   cache named for its file's name, size and time (a file edited in place gets a new one), in a
//   folder of its own for each install (two versions used in turn keep theirs) and for V8's
//   version and the flags set: V8 refuses a cache made by another version or with other flags,
//   and svc then compiles as usual and writes a new one. A chunk that imports an ES module (the
//   image codecs) is left to Node.
// - A cache V8 refuses (damaged: the flags include V8's checksums, v8-flags.js; another Node) is
//   compiled over and replaced; one that cannot be read or written is left alone, and anything
//   but a regular file of sane size is not read at all: the cache only ever makes a start
//   faster, never fails one.
// - Files are written whole under a temporary name and renamed, owner-only in an owner-only
//   folder, like everything svc keeps.
// - V8 checks the flags a cache was made with, so they are the same at every start: the launcher
//   sets a command's flags before anything loads (v8-flags.js), and each set has its folder; so
//   do Node's own options of a start (NODE_OPTIONS=--max-old-space-size=…, `node --… svc.js`),
//   which may carry V8 flags too: otherwise runs with and without them would each refuse and
//   rewrite the other's caches at every start.
// test/e2e/code-cache checks that a second run takes the cache as it is, that a damaged file is
// replaced, and that an unwritable folder changes nothing; Module._extensions is Node's
// long-standing (documented as deprecated, never removed) hook for how a file is loaded.
'use strict';
const { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

/** A bundle chunk: rolldown names each for its content (scripts/bundle.mjs). */
const HASHED_CHUNK = /-[A-Za-z0-9_-]{8}\.cjs$/;
/** Far beyond any chunk's cache (the largest is about 1 MB): anything bigger is not one. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Folders kept beside the one in use (other installs, Node versions, commands' flags, Node options): under 1 MB each. */
const MAX_OTHER_FOLDERS = 15;

/** Eight hex digits for `text` (FNV-1a): a folder name part, not a checksum. */
function shortHash(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * Node's own options of this start, as a folder name suffix ('' for none): NODE_OPTIONS and the
 * options given before the script. Any of them may be a V8 flag, which V8 checks a cache against.
 */
function startOptionsTag(env) {
  const options = [(env.NODE_OPTIONS ?? '').trim(), ...process.execArgv].filter((option) => option !== '');
  return options.length === 0 ? '' : `-${shortHash(options.join('\0'))}`;
}

/** $XDG_CACHE_HOME/svc/code (src/storage/paths.ts: cacheDir). */
function codeFolder(env) {
  const xdg = env.XDG_CACHE_HOME;
  // node:os only when HOME is not set (a millisecond of every start otherwise).
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || require('node:os').homedir(), '.cache');
  return join(base, 'svc', 'code');
}

/** The cache for a chunk of this size and time: its name says which file it was made from. */
function cacheName(chunk, size, mtimeMs) {
  return `${chunk}.${size}.${Math.trunc(mtimeMs)}.v8`;
}

/** The bytes of a cache file, or undefined when there is none, or what is there is no plain file of sane size (a pipe would block, a device never end). */
function readCache(path) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    return stats.isFile() && stats.size <= MAX_CACHE_BYTES ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
 * v8-flags.js), and write the cache of any chunk that had none when the process exits with
 * success.
 */
function useCodeCache(bundleDir, mode) {
  const code = codeFolder(process.env);
  const folder = join(code, `${shortHash(bundleDir)}-${process.versions.v8}-${mode}${startOptionsTag(process.env)}`);
  const plain = Module._extensions['.js'];
  const uncached = [];
  Module._extensions['.cjs'] = function loadChunk(module, filename) {
    if (dirname(filename) !== bundleDir || !HASHED_CHUNK.test(filename)) return plain(module, filename);
    const fd = openSync(filename, 'r');
    let source;
    let stats;
    try {
      stats = fstatSync(fd);
      source = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    // A chunk that imports an ES module (the image codecs) is left to Node: import() from a script
    // compiled here needs a loader option Node 20 still calls experimental, and warns about.
    if (source.includes('import(')) return plain(module, filename);
    const cacheFile = join(folder, cacheName(basename(filename), stats.size, stats.mtimeMs));
    const cachedData = readCache(cacheFile);
    // The same wrapper Node puts around a CommonJS file, on the file's first line.
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) uncached.push({ script, cacheFile });
    script.runInThisContext().call(module.exports, module.exports, requireFor(module), module, filename, dirname(filename));
  };
  // Written only by a command that succeeded: one stopped by a signal (a closed terminal, Ctrl-C)
  // or a failure leaves at once, and writes nothing into folders that may be going away.
  process.once('exit', (exitCode) => {
    if (exitCode === 0 && uncached.length > 0) writeCaches(code, folder, bundleDir, uncached);
  });
}

function writeCaches(code, folder, bundleDir, uncached) {
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
      removeQuietly(temporary);
    }
  }
  prune(code, folder, bundleDir);
}

/**
 * Tidiness, done only when something was written (an upgrade, a first run): in this folder, the
 * caches of chunks this build no longer has (or has changed) and leftovers of interrupted writes;
 * beside it, the folders (of other installs, Node versions, flags) unused for 30 days, and all
 * but the 15 most recently written.
 */
function prune(code, folder, bundleDir) {
  const now = Date.now();
  try {
    const current = new Set();
    for (const chunk of readdirSync(bundleDir)) {
      if (!HASHED_CHUNK.test(chunk)) continue;
      const stats = statSync(join(bundleDir, chunk));
      current.add(cacheName(chunk, stats.size, stats.mtimeMs));
    }
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (name.endsWith('.v8') ? !current.has(name) : name.endsWith('.tmp') && now - statSync(path).mtimeMs > DAY_MS) removeQuietly(path);
    }
    // The other folders, most recently written first: each set of Node options has its own, and
    // an option that changes at every start (a temporary path in NODE_OPTIONS) must not leave a
    // folder behind each time for a month.
    const others = readdirSync(code)
      .map((name) => join(code, name))
      .filter((path) => path !== folder)
      .map((path) => ({ path, mtimeMs: statSync(path).mtimeMs }))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    others.forEach(({ path, mtimeMs }, index) => {
      if (index >= MAX_OTHER_FOLDERS || now - mtimeMs > 30 * DAY_MS) rmSync(path, { recursive: true, force: true });
    });
  } catch {
    // Tidiness only: whatever is left is tried again after the next write.
  }
}

function removeQuietly(path) {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing more to do: the next write tries again.
  }
}

module.exports = { useCodeCache };
