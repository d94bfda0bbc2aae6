// The V8 flags a command runs with, set by the launcher before any of svc's code loads. They are
// set there, rather than where they matter, because V8 takes a code cache (code-cache.js) only
// with the flags it was made with: a flag set halfway through would make every cache written at
// exit useless at the next start. The modules that need a flag set it too (the same value, so
// nothing changes), for where svc runs without the launcher: in-process tests, the unbundled build.
// test/e2e/code-cache checks that these stay what those modules set.
'use strict';

/** WebAssembly on V8's baseline compiler: src/api/baseline-wasm.ts. */
const BASELINE_WASM = '--liftoff-only';
/** A batch's heap kept near its live size: src/commands/batch/steady-heap.ts (HEAP_GROWING_PERCENT). */
const STEADY_HEAP = '--heap-growing-percent=30';

/**
 * The flags for `svc <command>`: every command's WebAssembly stays on the baseline compiler but
 * the emulator's (its image encoders want the optimising one), and a batch keeps its heap steady.
 * `mode` names the set, for the code cache's folder.
 */
function flagsFor(command) {
  const flags = command === 'emulator' ? [] : command === 'batch' ? [BASELINE_WASM, STEADY_HEAP] : [BASELINE_WASM];
  const mode = flags.length === 0 ? 'default' : flags.map((flag) => flag.replace(/^--/, '')).join('+');
  return { flags, mode };
}

module.exports = { flagsFor };
