/**
 * The emulator's two WebAssembly encoders, mozjpeg (@jsquash/jpeg) and libwebp (@jsquash/webp),
 * loaded the same way. Left to themselves the packages load their .wasm with `fetch` and a
 * `file:` URL, the browser way, which fails under Node ("fetch failed"); so each module is
 * compiled here from its file in node_modules and handed to `init`. That happens once per process
 * and codec: the encoder is memoised, and a failed load is forgotten so the next request tries
 * again instead of failing for good.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The one function of the WebAssembly global used here; the DOM lib that types it is not loaded. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

/** What the codecs take: RGBA, 4 bytes per pixel. */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export type Encode<Options> = (image: RgbaImage, options?: Partial<Options>) => Promise<ArrayBuffer>;

/**
 * What each package's `encode.js` exports, typed here: its bundled types give `init` only an
 * options parameter, while the code takes the compiled module first.
 */
interface EncodeModule<Options> {
  init(module: object): Promise<unknown> | void;
  default: Encode<Options>;
}

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
 * The encoder of `encodeModule` (its `encode.js`, imported on first use), compiled from the first
 * of `wasmFiles` that compiles.
 */
export function wasmEncoder<Options>(encodeModule: () => Promise<unknown>, wasmFiles: readonly string[]): () => Promise<Encode<Options>> {
  let loading: Promise<Encode<Options>> | undefined;
  const load = async (): Promise<Encode<Options>> => {
    const codec = (await encodeModule()) as EncodeModule<Options>;
    await codec.init(await compileFirst(wasmFiles));
    return codec.default;
  };
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
