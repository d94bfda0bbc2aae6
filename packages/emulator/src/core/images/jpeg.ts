/**
 * JPEG output through @jsquash/jpeg's encoder (mozjpeg compiled to WebAssembly), the package whose
 * decoder the preview already uses: no native build, so it installs everywhere svc does, and a
 * fraction of the CPU a pure-JavaScript encoder (jpeg-js) takes. Compiling the codec costs a
 * noticeable moment once per process (svc's bench/README.md has the figures).
 */
import { wasmCodec, type Encode } from './wasm-codec.js';

/** Quality 85: the usual web setting, with no visible blocking on smooth gradients. */
export const JPEG_QUALITY = 85;

interface MozJpegOptions {
  quality: number;
  baseline: boolean;
  progressive: boolean;
  optimize_coding: boolean;
}

/**
 * Baseline (one scan, what every decoder reads) with optimised Huffman tables: faster than
 * mozjpeg's progressive default, and smaller than baseline without them.
 */
const OPTIONS: MozJpegOptions = { quality: JPEG_QUALITY, baseline: true, progressive: false, optimize_coding: true };

const encoder = wasmCodec<Encode<MozJpegOptions>>(() => import('@jsquash/jpeg/encode.js'), ['@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm']);

/** Encodes RGBA pixels (alpha ignored) as a baseline JPEG file, at `quality` (0 to 100) or 85. */
export async function encodeJpeg(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, quality = JPEG_QUALITY): Promise<Buffer> {
  const encode = await encoder();
  const data = rgba instanceof Uint8ClampedArray ? rgba : new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  return Buffer.from(await encode({ data, width, height }, quality === JPEG_QUALITY ? OPTIONS : { ...OPTIONS, quality }));
}
