// The V8 flags a command runs with, set by the launcher before any of svc's code loads. They are
// set there, rather than where they matter, because V8 takes a code cache (code-cache.js) only
// with the flags it was made with: a flag set halfway through would make every cache written at
// exit useless at the next start. The modules that need a flag set it too (the same value, so
// nothing changes), for where svc runs without the launcher: in-process tests, the unbundled build.
// test/e2e/code-cache checks that these stay what those modules set.
'use strict';

/**
 * Checksums on code caches: without it V8 takes a damaged cache file of the right length and
 * crashes on it (a fatal error at every start, as the file is never replaced); with it, V8
 * refuses such a file and svc compiles over it.
 */
const CHECKED_CACHE = '--verify-snapshot-checksum';
/** WebAssembly on V8's baseline compiler: src/api/baseline-wasm.ts. */
const BASELINE_WASM = '--liftoff-only';
/** A batch's heap kept near its live size: src/commands/batch/steady-heap.ts (HEAP_GROWING_PERCENT). */
const STEADY_HEAP = '--heap-growing-percent=30';

/** The command of `svc ...args`: the first word after the root's own options (src/program.ts: --plain, --profile <name>). */
function commandOf(args) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--profile') i += 1;
    else if (!args[i].startsWith('-')) return args[i];
  }
  return undefined;
}

/**
 * The flags for `svc ...args`: every command's WebAssembly stays on the baseline compiler but the
 * emulator's (its image encoders want the optimising one), and a batch keeps its heap steady.
 * `mode` names the set, for the code cache's folder.
 */
function flagsFor(args) {
  const command = commandOf(args);
  const own = command === 'emulator' ? [] : command === 'batch' ? [BASELINE_WASM, STEADY_HEAP] : [BASELINE_WASM];
  const flags = [CHECKED_CACHE, ...own];
  return { flags, mode: flags.map((flag) => flag.replace(/^--/, '')).join('+') };
}

module.exports = { flagsFor };
