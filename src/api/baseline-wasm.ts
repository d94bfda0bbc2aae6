/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for this process. Imported before undici,
 * whose HTTP parser (llhttp) is WebAssembly.
 *
 * Why: by default V8 recompiles hot WebAssembly with its optimising compiler on a background
 * thread, and a process cannot exit until that job is done. A command that lives a fraction of a
 * second would wait for it after the reply is printed, longer than the optimised parser saves
 * even on the longest stream (bench/README.md, "WebAssembly on the baseline compiler"). The flag
 * only affects WebAssembly compiled after it is set, but it holds for the rest of the process:
 * WebAssembly that needs speed (the emulator's JPEG and WebP encoders) must not run in a process
 * that has loaded the HTTP client. The launcher sets the flag too, before anything loads, for
 * every command but `svc emulator` (bin/v8-flags.js: a code cache is only taken with the flags it
 * was made with); this import sets it where svc runs without the launcher. V8 flags are no API:
 * test/api/baseline-wasm checks that this Node's V8 still knows the flag and that setting it
 * prints nothing.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
