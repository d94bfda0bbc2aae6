/**
 * A fast path for the PNGs image services send: 8-bit RGB or RGBA, not interlaced. zlib (Node's
 * own, native) inflates the image data; one loop then undoes the row filters and writes RGBA.
 * Anything else (palette, grey, 16-bit, interlaced) is left to pngjs (decode.ts). Why: pngjs
 * inflates into pieces it then joins, undoes the filters into a second copy and expands that into
 * a third, about 60 ms and 16 MiB for a megapixel, most of the preview's budget; this takes about
 * a third of the time and half the memory. Checked against pngjs on every filter type
 * (test/preview/png-rgb.test.ts).
 */
import { inflateSync } from 'node:zlib';
import type { Pixels } from './pixels.js';

/** PNG § 11.2.2: colour type 2 is truecolour (RGB), 6 truecolour with alpha. */
const CHANNELS: Record<number, number> = { 2: 3, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * RGBA pixels of `file` when it is an 8-bit RGB(A) PNG without interlacing, else undefined (the
 * caller decodes it another way). Throws on a damaged file of that kind.
 */
export function decodeRgbPng(file: Buffer): Pixels | undefined {
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
  const stride = width * channels;
  const expected = (stride + 1) * height;
  // maxOutputLength: a file cannot make zlib produce more than its picture needs.
  const raw = inflateSync(parts.length === 1 ? parts[0]! : Buffer.concat(parts), { maxOutputLength: expected });
  if (raw.length < expected) throw new Error('the image data is shorter than the picture');

  const data = new Uint8Array(width * height * 4);
  // The previous row, unfiltered (zeros above the first), and the current one.
  let previous = new Uint8Array(stride);
  let current = new Uint8Array(stride);
  for (let y = 0; y < height; y += 1) {
    const start = y * (stride + 1) + 1;
    const filter = raw[start - 1];
    // One loop per filter type (PNG § 9.2), so the choice is made once a row, not once a byte.
    // Bytes to the left of the first pixel count as 0; the Uint8Array keeps each sum modulo 256.
    switch (filter) {
      case 0:
        current.set(raw.subarray(start, start + stride));
        break;
      case 1:
        for (let i = 0; i < channels; i += 1) current[i] = raw[start + i]!;
        for (let i = channels; i < stride; i += 1) current[i] = raw[start + i]! + current[i - channels]!;
        break;
      case 2:
        for (let i = 0; i < stride; i += 1) current[i] = raw[start + i]! + previous[i]!;
        break;
      case 3:
        for (let i = 0; i < channels; i += 1) current[i] = raw[start + i]! + (previous[i]! >> 1);
        for (let i = channels; i < stride; i += 1) current[i] = raw[start + i]! + ((current[i - channels]! + previous[i]!) >> 1);
        break;
      case 4:
        for (let i = 0; i < channels; i += 1) current[i] = raw[start + i]! + previous[i]!; // Paeth(0, up, 0) is up
        for (let i = channels; i < stride; i += 1) current[i] = raw[start + i]! + paeth(current[i - channels]!, previous[i]!, previous[i - channels]!);
        break;
      default:
        throw new Error(`unknown row filter ${filter}`);
    }
    const o = y * width * 4;
    if (channels === 4) {
      data.set(current, o);
    } else {
      for (let x = 0, i = 0, p = o; x < width; x += 1, i += 3, p += 4) {
        data[p] = current[i]!;
        data[p + 1] = current[i + 1]!;
        data[p + 2] = current[i + 2]!;
        data[p + 3] = 255;
      }
    }
    [previous, current] = [current, previous];
  }
  return { width, height, data };
}
