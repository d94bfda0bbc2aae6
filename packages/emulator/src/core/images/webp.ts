/**
 * WebP output through @jsquash/webp (libwebp compiled to WebAssembly, from Squoosh): no native
 * build, lossy WebP at libwebp's default quality 75.
 */
import { wasmCodec, type Encode } from './wasm-codec.js';

/**
 * libwebp's speed setting, 0 (fastest) to 6. 2 takes about half the CPU of its default, 4, for a
 * slightly larger file: the emulator answers scripts and tests, where the wait matters more than
 * the bytes.
 */
export const WEBP_METHOD = 2;

// The package picks its JavaScript glue with the same SIMD test as the engine, so glue and
// wasm always match: the SIMD build first, the plain one where SIMD cannot compile.
const encoder = wasmCodec<Encode<{ method: number; quality?: number }>>(() => import('@jsquash/webp/encode.js'), [
  '@jsquash/webp/codec/enc/webp_enc_simd.wasm',
  '@jsquash/webp/codec/enc/webp_enc.wasm',
]);

/**
 * Encodes RGBA pixels as a lossy WebP file, at `quality` (0 to 100) or libwebp's default 75. The
 * first call also loads and compiles the codec.
 */
export async function encodeWebp(rgba: Uint8ClampedArray, width: number, height: number, quality?: number): Promise<Buffer> {
  const encode = await encoder();
  return Buffer.from(await encode({ data: rgba, width, height }, quality === undefined ? { method: WEBP_METHOD } : { method: WEBP_METHOD, quality }));
}
