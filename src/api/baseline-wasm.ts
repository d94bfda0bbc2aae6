/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for this process. Imported before undici,
 * whose HTTP parser (llhttp) is WebAssembly.
 *
 * Why: by default V8 recompiles hot WebAssembly with its optimising compiler on a background
 * thread, and a process cannot exit until that job is done. For a command that lives a few
 * hundred milliseconds this added 100 to 250 ms after the reply was already printed, while
 * the optimised parser saves less than that even on a 33 MB stream (bench/README.md has the
 * figures; measured again for issue 22: a one-shot chat takes 125 ms with it, 189 ms without,
 * medians of 15 alternating). The flag only affects WebAssembly compiled after it is set, but it holds for the
 * rest of the process: WebAssembly that needs speed (the emulator's JPEG and WebP encoders) must not run
 * in a process that has loaded the HTTP client. The launcher sets the flag too, before anything
 * loads, for every command but `svc emulator` (bin/v8-flags.js: a code cache is only taken with
 * the flags it was made with); this import sets it where svc runs without the launcher. V8 flags are no API: test/api/baseline-wasm
 * checks that this Node's V8 still knows the flag and that setting it prints nothing.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
