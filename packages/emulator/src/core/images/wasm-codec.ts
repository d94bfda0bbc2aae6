/**
 * The @jsquash codecs (Squoosh's mozjpeg and libwebp compiled to WebAssembly), loaded one way
 * for the encoders (jpeg.ts, webp.ts) and the decoders (decode.ts). Left to themselves the
 * packages load their .wasm with `fetch` and a `file:` URL, the browser way, which fails under
 * Node ("fetch failed"); so each module is compiled here from its file in node_modules and
 * handed to `init`, once per process and codec: the codec is memoised, and a failed load is
 * forgotten so the next use tries again.
 *
 * svc's preview loads the same packages' decoders with a loader of its own (svc's
 * src/images/wasm-codec.ts): this package imports nothing of svc, and the two stay small.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The one function of the WebAssembly global used here; the DOM lib that types it is not loaded. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

/** An encoder's shape: RGBA pixels in, the file out. */
export type Encode<Options> = (image: { data: Uint8ClampedArray; width: number; height: number }, options?: Partial<Options>) => Promise<ArrayBuffer>;

/** A decoder's shape: the file in, RGBA pixels out (the packages polyfill `ImageData` under Node). */
export type Decode = (file: ArrayBuffer) => Promise<{ data: Uint8ClampedArray; width: number; height: number }>;

/** What each package's `encode.js` and `decode.js` export: their bundled types give `init` no module parameter, while the code takes it first. */
interface CodecModule<Codec> {
  init(module: object, overrides: { print(text: string): void; printErr(text: string): void }): Promise<unknown> | void;
  default: Codec;
}

// What Emscripten's glue would print on its own is dropped: the emulator answers in HTTP only.
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
 * The codec of `codecModule` (a package's `encode.js` or `decode.js`, imported on first use),
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
