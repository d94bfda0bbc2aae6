/**
 * Reading an image a client sends in a message: its format told by its first bytes (whatever
 * the data URL declares), its size, and its pixels. PNG by png-decode.ts, JPEG and WebP by the
 * @jsquash decoders (the same WebAssembly packages as the encoders, loaded the same way), GIF by
 * omggif (its first frame). Each decoder is imported on first use: a chat without images loads
 * none of them.
 */
import type { Pixels } from './pixels.js';
import { wasmCodec, type Decode } from './wasm-codec.js';

/** The formats OpenAI reads from a message, and so the emulator. */
export const INPUT_FORMATS = ['png', 'jpeg', 'gif', 'webp'] as const;

export type InputFormat = (typeof INPUT_FORMATS)[number];

/** An image read from a message: its pixels, its format, and how many frames it has (an animated GIF). */
export interface ReadImage extends Pixels {
  format: InputFormat;
  frames: number;
}

/**
 * More pixels than this is refused rather than decoded: 64 megapixels take 256 MB as RGBA, and a
 * header can announce far more than its file holds.
 */
export const MAX_INPUT_PIXELS = 64 * 1024 * 1024;

/** The format `bytes` start with, or undefined for anything else. */
export function sniffImage(bytes: Buffer): InputFormat | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif';
  if (bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** A JPEG's size from its start-of-frame segment (any of SOF0–SOF15 but the three that are not frames). */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`JPEG: expected a marker at byte ${at}`);
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('JPEG: no frame header');
}

/** A WebP's size from its first chunk: lossy VP8, lossless VP8L, or the extended VP8X header. */
function webpSize(bytes: Buffer): { width: number; height: number } {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && bytes.length >= 30) return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && bytes.length >= 30) return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  throw new Error('WebP: no image chunk');
}

const jpegDecoder = wasmCodec<Decode>(() => import('@jsquash/jpeg/decode.js'), ['@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm']);
const webpDecoder = wasmCodec<Decode>(() => import('@jsquash/webp/decode.js'), ['@jsquash/webp/codec/dec/webp_dec.wasm']);

function checkPixels(width: number, height: number, format: string): void {
  if (width < 1 || height < 1) throw new Error(`${format}: an image without pixels`);
  if (width * height > MAX_INPUT_PIXELS) throw new Error(`${format}: ${width}×${height} is more pixels than the emulator reads`);
}

/** The file's own bytes, as the WebAssembly decoders take them. */
function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

async function decodeWasm(decoder: () => Promise<Decode>, bytes: Buffer, format: InputFormat): Promise<ReadImage> {
  const size = format === 'jpeg' ? jpegSize(bytes) : webpSize(bytes);
  checkPixels(size.width, size.height, format);
  const image = await (await decoder())(arrayBufferOf(bytes));
  return { width: image.width, height: image.height, data: image.data, format, frames: 1 };
}

async function decodeGif(bytes: Buffer): Promise<ReadImage> {
  const { GifReader } = await import('omggif');
  const reader = new GifReader(bytes);
  checkPixels(reader.width, reader.height, 'GIF');
  const data = new Uint8ClampedArray(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data);
  return { width: reader.width, height: reader.height, data, format: 'gif', frames: reader.numFrames() };
}

/**
 * Decodes an image file of any of {@link INPUT_FORMATS} to RGBA pixels. Throws when the bytes are
 * none of them, or not a whole, readable file of the one they claim to be.
 */
export async function decodeImage(bytes: Buffer): Promise<ReadImage> {
  const format = sniffImage(bytes);
  switch (format) {
    case 'png': {
      const { decodePng } = await import('./png-decode.js');
      return { ...(await decodePng(bytes, MAX_INPUT_PIXELS)), format, frames: 1 };
    }
    case 'jpeg':
      return decodeWasm(jpegDecoder, bytes, format);
    case 'webp':
      return decodeWasm(webpDecoder, bytes, format);
    case 'gif':
      return decodeGif(bytes);
    default:
      throw new Error('not a PNG, JPEG, GIF or WebP file');
  }
}
