/**
 * A picture made smaller in its own format: decoded, scaled down with the area average
 * (scale.ts), turned upright, and encoded again: a JPEG stays a JPEG (mozjpeg), a PNG a PNG
 * (png-write.ts), a WebP a WebP (libwebp), and a GIF becomes a PNG. The header readers here are
 * light; the decoders, the scaler and every encoder are imported on first use, so only a picture
 * that has to be made smaller pays for them.
 *
 * GIF is not one of the formats the image endpoint makes (decode.ts, api/images/formats.ts), so
 * its reading is here: omggif, a small pure-JavaScript codec, gives the first frame. A chat model
 * takes still pictures (OpenAI's accepts only GIFs that do not move), and the first frame is the
 * one every viewer shows before it plays the rest.
 */
import type { ImageFormat } from '../api/images/formats.js';
import type { PixelRows, Pixels } from './pixels.js';
import { wasmCodec } from './wasm-codec.js';
import { isGif } from './file-format.js';

/** What an image attached to a message can be: the image endpoint's formats and GIF. */
export type InputFormat = ImageFormat | 'gif';

export interface Size {
  width: number;
  height: number;
}

/**
 * JPEG and WebP are written at quality 85: the usual web setting, with no blocking a model (or a
 * person) would notice on photos or screenshots, and far fewer bytes than near-lossless settings:
 * the picture goes again with every later request of the conversation.
 */
const QUALITY = 85;

type Encode<Options> = (image: { data: Uint8ClampedArray; width: number; height: number }, options?: Partial<Options>) => Promise<ArrayBuffer>;

const ENCODERS = {
  // Baseline with optimised Huffman tables: what every decoder reads, and quicker to write than
  // mozjpeg's progressive default for a file about as small.
  jpeg: wasmCodec<Encode<{ quality: number; baseline: boolean; progressive: boolean; optimize_coding: boolean }>>(
    () => import('@jsquash/jpeg/encode.js'),
    ['@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'],
  ),
  // The package picks its JavaScript glue with the same SIMD test as the engine: the SIMD build
  // first, the plain one where SIMD cannot compile.
  webp: wasmCodec<Encode<{ quality: number; method: number }>>(
    () => import('@jsquash/webp/encode.js'),
    ['@jsquash/webp/codec/enc/webp_enc_simd.wasm', '@jsquash/webp/codec/enc/webp_enc.wasm'],
  ),
} as const;

/** The picture's data could not be decoded: the file is damaged or cut short. */
export class UnreadableImageError extends Error {}

/** A GIF's logical screen size (the canvas its frames are drawn on), from its header. */
export function gifSize(bytes: Uint8Array): Size | undefined {
  if (!isGif(bytes) || bytes.length < 10) return undefined;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** How many frames a GIF holds (more than one: it moves). Throws on a damaged file. */
export async function gifFrames(bytes: Uint8Array): Promise<number> {
  const { GifReader } = await import('omggif');
  return new GifReader(bytes).numFrames();
}

/** A GIF's first frame drawn on its canvas, RGBA; what the frame leaves uncovered is transparent. */
async function decodeGif(bytes: Uint8Array): Promise<Pixels> {
  const { GifReader } = await import('omggif');
  const reader = new GifReader(bytes);
  const data = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data);
  return { width: reader.width, height: reader.height, data };
}

/**
 * The EXIF orientation of a JPEG (1 to 8; 1 upright), read from its APP1 segment: a camera or a
 * phone stores the picture as its sensor saw it and says here how to turn it. The decoder does
 * not apply it, and a picture encoded again carries no EXIF: it is applied to the pixels instead,
 * or a portrait photo would reach the model lying on its side.
 */
export function jpegOrientation(bytes: Uint8Array): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return 1;
  for (let at = 2; at + 4 <= b.length; ) {
    if (b[at] !== 0xff) return 1;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Start of scan or a frame header: the metadata segments come before them.
    if (marker === 0xda || (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)) return 1;
    const length = b.readUInt16BE(at + 2);
    if (marker === 0xe1 && length >= 16 && at + 2 + length <= b.length && b.toString('latin1', at + 4, at + 10) === 'Exif\0\0') {
      return tiffOrientation(b.subarray(at + 10, at + 2 + length));
    }
    at += 2 + length;
  }
  return 1;
}

/** Tag 0x0112 of a TIFF header's first directory (EXIF is a TIFF inside the segment), or 1. */
function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const u16 = (at: number): number => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number): number => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const directory = u32(4);
  if (directory + 2 > tiff.length) return 1;
  const entries = u16(directory);
  for (let i = 0; i < entries; i += 1) {
    const entry = directory + 2 + i * 12;
    if (entry + 12 > tiff.length) return 1;
    // A SHORT (type 3) holding 1 to 8; anything else is a damaged tag, read as upright.
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return u16(entry + 2) === 3 && value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** The size a picture of `size` shows at under `orientation`: orientations 5 to 8 turn it a quarter. */
export function orientedSize(size: Size, orientation: number): Size {
  return orientation >= 5 ? { width: size.height, height: size.width } : size;
}

/**
 * Where each upright pixel comes from in the stored picture, for each EXIF orientation (TIFF 6.0,
 * tag 274): the stored index of the upright picture's first pixel, and how far that index moves
 * for one step right and one step down (`w` × `h`: the stored size).
 */
function walk(orientation: number, w: number, h: number): { first: number; right: number; down: number } {
  switch (orientation) {
    case 2: // mirrored left to right
      return { first: w - 1, right: -1, down: w };
    case 3: // upside down
      return { first: w * h - 1, right: -1, down: -w };
    case 4: // mirrored top to bottom
      return { first: (h - 1) * w, right: 1, down: -w };
    case 5: // mirrored along the main diagonal
      return { first: 0, right: w, down: 1 };
    case 6: // turned a quarter clockwise
      return { first: (h - 1) * w, right: -w, down: 1 };
    case 7: // mirrored along the other diagonal
      return { first: w * h - 1, right: -w, down: -1 };
    default: // 8: turned a quarter anticlockwise
      return { first: w - 1, right: w, down: -1 };
  }
}

/**
 * The pixels turned upright as EXIF `orientation` says: each upright pixel taken from where the
 * stored picture holds it, moved whole as a 32-bit word. Orientation 1 is the same pixels.
 */
export function orient(pixels: Pixels, orientation: number): Pixels {
  if (orientation < 2 || orientation > 8) return pixels;
  const { width, height } = orientedSize(pixels, orientation);
  const { data } = pixels;
  const from = data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2) : new Uint32Array(data.slice().buffer);
  const to = new Uint32Array(width * height);
  const { first, right, down } = walk(orientation, pixels.width, pixels.height);
  for (let y = 0, o = 0, row = first; y < height; y += 1, row += down) {
    for (let x = 0, i = row; x < width; x += 1, o += 1, i += right) to[o] = from[i]!;
  }
  return { width, height, data: new Uint8Array(to.buffer) };
}

/** The picture's pixels as its decoder leaves them; an UnreadableImageError when they cannot be had. */
async function decode(bytes: Uint8Array, format: InputFormat, maxPixels: number): Promise<Pixels | PixelRows> {
  const { decodeRows, PreviewDecodeError } = await import('./decode.js');
  try {
    return format === 'gif' ? await decodeGif(bytes) : await decodeRows(bytes, maxPixels);
  } catch (error) {
    // omggif throws plain Errors on a damaged file; decode.ts says so with its own class. Anything
    // else (a codec that would not load) is not the file's fault and goes up as it is.
    if (format === 'gif' || error instanceof PreviewDecodeError) throw new UnreadableImageError('the image could not be decoded', { cause: error });
    throw error;
  }
}

/** The file of `pixels` in `format` (a GIF's pixels are written as a PNG). */
export async function encodePixels(pixels: Pixels, format: InputFormat): Promise<Buffer> {
  const { width, height, data } = pixels;
  if (format === 'jpeg' || format === 'webp') {
    const encode = await ENCODERS[format]();
    const rgba = new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
    const options = format === 'jpeg' ? { quality: QUALITY, baseline: true, progressive: false, optimize_coding: true } : { quality: QUALITY };
    return Buffer.from(await encode({ data: rgba, width, height }, options));
  }
  const [{ isOpaque }, { pngFile, subFilteredRows }, { deflateSync }] = await Promise.all([import('./pixels.js'), import('./png-write.js'), import('node:zlib')]);
  const alpha = !isOpaque(pixels);
  // zlib's default level, not the preview's fastest: the file goes again with every later request.
  return pngFile(width, height, alpha, deflateSync(subFilteredRows(data, width, height, alpha)));
}

/**
 * `bytes` (a `format` picture whose stored size is `stored`) scaled down to `target` (its upright
 * size), turned upright as `orientation` says, and encoded again. `maxPixels`: the most pixels
 * decoded (checked before decoding by the caller too, from the header).
 */
export async function shrinkImage(bytes: Uint8Array, format: InputFormat, target: Size, orientation: number, maxPixels: number): Promise<Buffer> {
  const [rows, { scaleDown }] = await Promise.all([decode(bytes, format, maxPixels), import('./scale.js')]);
  // Scaled in the stored orientation (fewer pixels to turn afterwards).
  const stored = orientedSize(target, orientation);
  const upright = orient(scaleDown(rows, stored.width, stored.height), orientation);
  return encodePixels(upright, format);
}
