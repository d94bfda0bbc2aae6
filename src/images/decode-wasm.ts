/**
 * The JPEG and WebP decoders of @jsquash (Squoosh's codecs compiled to WebAssembly: mozjpeg and
 * libwebp), each loaded on first use, once per process, as the emulator's encoders are
 * (images/wasm-codec.ts).
 */
import { wasmCodec } from './wasm-codec.js';
import type { Pixels } from './pixels.js';

type Decode = (bytes: ArrayBuffer) => Promise<{ data: Uint8ClampedArray; width: number; height: number }>;

const DECODERS = {
  jpeg: wasmCodec<Decode>(() => import('@jsquash/jpeg/decode.js'), ['@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm']),
  webp: wasmCodec<Decode>(() => import('@jsquash/webp/decode.js'), ['@jsquash/webp/codec/dec/webp_dec.wasm']),
} as const;

export type WasmFormat = keyof typeof DECODERS;

/** Start compiling `format`'s decoder now (while the image is generated); a failure is left for the decode to report. */
export function preloadDecoder(format: WasmFormat): void {
  DECODERS[format]().catch(() => {});
}

/** RGBA pixels of a JPEG (baseline or progressive) or WebP (lossy or lossless, with alpha) file. */
export async function decodeWithWasm(format: WasmFormat, bytes: Uint8Array): Promise<Pixels> {
  const decode = await DECODERS[format]();
  // The codecs want an ArrayBuffer of exactly the file: a Buffer may be a view into a larger pool.
  const exact = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const image = await decode(exact);
  return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
}
