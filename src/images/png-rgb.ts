/**
 * A fast path for the PNGs image services send: 8-bit RGB or RGBA, not interlaced. zlib (Node's
 * own, native) inflates the image data; the row filters are then undone in place, in the inflated
 * buffer itself, which the scaler reads as it is (RGB stays RGB: no RGBA copy of a picture that is
 * only going to be scaled down). Anything else (palette, grey, 16-bit, interlaced) is left to pngjs
 * (decode.ts). Why: pngjs inflates into pieces it then joins, undoes the filters into a second
 * copy and expands that into a third, most of the preview's budget in time and memory for a
 * megapixel; this keeps the one inflated buffer (bench/README.md, the preview). Checked against
 * pngjs on every filter type (test/images/png-rgb.test.ts).
 */
import { inflateSync } from 'node:zlib';
import type { PixelRows } from './pixels.js';

/** PNG § 11.2.2: colour type 2 is truecolour (RGB), 6 truecolour with alpha. */
const CHANNELS: Record<number, 3 | 4> = { 2: 3, 6: 4 };

/**
 * Undo one row's filter (PNG § 9.2) in place: bytes `start` to `end` of `raw`, the same row above
 * `above` bytes earlier (its filter byte lies between and is skipped), `channels` bytes a pixel.
 * One loop per filter type, so the choice is made once a row, not once a byte; bytes left of the
 * first pixel and above the first row count as 0, and the Uint8Array keeps each sum modulo 256.
 */
function unfilterRow(raw: Buffer, filter: number, start: number, end: number, above: number, channels: number, first: boolean): void {
  const left = start + channels;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = left; i < end; i += 1) raw[i] = raw[i]! + raw[i - channels]!;
      return;
    case 2:
      if (!first) for (let i = start; i < end; i += 1) raw[i] = raw[i]! + raw[i - above]!;
      return;
    case 3:
      if (first) {
        for (let i = left; i < end; i += 1) raw[i] = raw[i]! + (raw[i - channels]! >> 1);
        return;
      }
      for (let i = start; i < left; i += 1) raw[i] = raw[i]! + (raw[i - above]! >> 1);
      for (let i = left; i < end; i += 1) raw[i] = raw[i]! + ((raw[i - channels]! + raw[i - above]!) >> 1);
      return;
    case 4:
      // Paeth of (left, up, up-left): with no row above it is the left byte, with no left byte up.
      if (first) {
        for (let i = left; i < end; i += 1) raw[i] = raw[i]! + raw[i - channels]!;
        return;
      }
      for (let i = start; i < left; i += 1) raw[i] = raw[i]! + raw[i - above]!;
      for (let i = left; i < end; i += 1) {
        const a = raw[i - channels]!;
        const b = raw[i - above]!;
        const c = raw[i - above - channels]!;
        // |p - a|, |p - b|, |p - c| for p = a + b - c, without forming p.
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - c - c);
        raw[i] = raw[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw new Error(`unknown row filter ${filter}`);
  }
}

/**
 * The rows of `file` when it is an 8-bit RGB(A) PNG without interlacing, else undefined (the
 * caller decodes it another way). Throws on a damaged file of that kind.
 */
export function decodeRgbPngRows(file: Buffer): PixelRows | undefined {
  // Signature (8), then IHDR: length (4), "IHDR" (4), width, height, depth, colour, compression, filter, interlace.
  if (file.length < 33 || file.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = file.readUInt32BE(16);
  const height = file.readUInt32BE(20);
  const depth = file[24];
  const colour = file[25]!;
  const interlace = file[28];
  const channels = CHANNELS[colour];
  if (depth !== 8 || channels === undefined || interlace !== 0 || width === 0 || height === 0) return undefined;

  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= file.length; ) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > file.length) throw new Error('a chunk runs past the end of the file');
    if (type === 'IDAT') parts.push(file.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  if (parts.length === 0) throw new Error('the file holds no image data');
  const bytes = width * channels;
  const stride = bytes + 1;
  const expected = stride * height;
  // maxOutputLength: a file cannot make zlib produce more than its picture needs.
  const raw = inflateSync(parts.length === 1 ? parts[0]! : Buffer.concat(parts), { maxOutputLength: expected });
  if (raw.length < expected) throw new Error('the image data is shorter than the picture');
  for (let y = 0; y < height; y += 1) {
    const start = y * stride + 1;
    unfilterRow(raw, raw[start - 1]!, start, start + bytes, stride, channels, y === 0);
  }
  return { width, height, channels, data: raw, offset: 1, stride };
}
