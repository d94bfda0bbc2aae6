/**
 * The @jsquash codecs (Squoosh's mozjpeg and libwebp compiled to WebAssembly), as the preview's
 * JPEG and WebP decoders load them (images/decode-wasm.ts); the emulator, a package of its own,
 * loads the encoders with a loader of its own (packages/emulator). Left to themselves the
 * packages load their .wasm with `fetch` and a `file:` URL, the browser way, which fails under
 * Node ("fetch failed"); so each module is compiled here from its file in node_modules and handed
 * to `init`. That happens once per process and codec: the codec is memoised, and a failed load is
 * forgotten so the next use tries again instead of failing for good.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The one function of the WebAssembly global used here; the DOM lib that types it is not loaded. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

/** What Emscripten's glue may print on its own: routed here. */
interface Overrides {
  print(text: string): void;
  printErr(text: string): void;
}

/**
 * What each package's `decode.js` exports, typed here: their bundled types give
 * `init` only an options parameter, while the code takes the compiled module first.
 */
interface CodecModule<Codec> {
  init(module: object, overrides: Overrides): Promise<unknown> | void;
  default: Codec;
}

// libjpeg prints its warnings ("Premature end of JPEG file") straight to stderr: svc says what
// went wrong itself, in one line, so the codecs' own output is dropped.
const quiet = (): void => {};

/** Compiles the first of `wasmFiles` that this engine can compile (a SIMD build before a plain one). */
async function compileFirst(wasmFiles: readonly string[]): Promise<object> {
  const require = createRequire(import.meta.url);
  let failure: unknown;
  for (const file of wasmFiles) {
    try {
      return await WebAssembly.compile(await readFile(require.resolve(file)));
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/**
 * The codec of `codecModule` (a package's `decode.js`, imported on first use),
 * compiled from the first of `wasmFiles` that compiles.
 */
export function wasmCodec<Codec>(codecModule: () => Promise<unknown>, wasmFiles: readonly string[]): () => Promise<Codec> {
  let loading: Promise<Codec> | undefined;
  const load = async (): Promise<Codec> => {
    const codec = (await codecModule()) as CodecModule<Codec>;
    await codec.init(await compileFirst(wasmFiles), { print: quiet, printErr: quiet });
    return codec.default;
  };
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
