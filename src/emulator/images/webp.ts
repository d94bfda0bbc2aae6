/**
 * WebP output through @jsquash/webp (libwebp compiled to WebAssembly, from Squoosh): no native
 * build, lossy WebP at libwebp's default quality 75.
 *
 * Left to itself the package loads its .wasm file with `fetch` and a `file:` URL, the browser way,
 * which fails under Node ("fetch failed"); so the module is compiled here from the file in
 * node_modules and handed to `init`. That happens once per process: the encoder is memoised.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The one function of the WebAssembly global used here; the DOM lib that types it is not loaded. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

type Encode = (image: { data: Uint8ClampedArray; width: number; height: number }) => Promise<ArrayBuffer>;

/**
 * What `encode.js` exports, typed here: its bundled types give `init` only an options parameter,
 * while the code takes the compiled module first.
 */
interface EncodeModule {
  init(module: object): Promise<unknown>;
  default: Encode;
}

let loading: Promise<Encode> | undefined;

/**
 * Compiles the SIMD build when the engine supports it, else the plain one. The package picks its
 * JavaScript glue with the same SIMD test, so glue and wasm always match.
 */
async function compileCodec(): Promise<object> {
  const require = createRequire(import.meta.url);
  try {
    return await WebAssembly.compile(await readFile(require.resolve('@jsquash/webp/codec/enc/webp_enc_simd.wasm')));
  } catch {
    return WebAssembly.compile(await readFile(require.resolve('@jsquash/webp/codec/enc/webp_enc.wasm')));
  }
}

async function loadEncoder(): Promise<Encode> {
  const codec = (await import('@jsquash/webp/encode.js')) as unknown as EncodeModule;
  await codec.init(await compileCodec());
  return codec.default;
}

/** Encodes RGBA pixels as a lossy WebP file. The first call also loads the codec (about 0.1 s). */
export async function encodeWebp(rgba: Uint8ClampedArray, width: number, height: number): Promise<Buffer> {
  // A failed load is forgotten, so the next request tries again instead of failing for good.
  loading ??= loadEncoder().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  const encode = await loading;
  return Buffer.from(await encode({ data: rgba, width, height }));
}
