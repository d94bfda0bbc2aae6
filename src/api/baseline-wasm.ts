/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for this process. Imported before undici,
 * whose HTTP parser (llhttp) is WebAssembly.
 *
 * Why: by default V8 recompiles hot WebAssembly with its optimising compiler on a background
 * thread, and a process cannot exit until that job is done. For a command that lives a few
 * hundred milliseconds this added 100 to 250 ms after the reply was already printed, while
 * the optimised parser saves less than that even on a 33 MB stream (bench/README.md has the
 * figures). The flag only affects WebAssembly compiled after it is set, but it holds for the
 * rest of the process: WebAssembly that needs speed (the emulator's WebP encoder) must not run
 * in a process that has loaded the HTTP client. Should a V8 version drop the flag, Node prints
 * "unrecognized flag" on stderr; the end-to-end tests that expect an empty stderr would show it.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
