/**
 * Reading a PNG a client sends in a message (PNG specification, W3C, 3rd edition): every colour
 * type (grey, RGB, palette, grey with alpha, RGBA), bit depths 1 to 16, `tRNS` transparency, the
 * five row filters and Adam7 interlacing, to RGBA 8 bits a channel. png.ts writes the emulator's
 * own pictures (RGB, one filter); a client's file can be any of these. CRCs are not checked, as
 * most viewers do not: a damaged file is caught where its data stops making sense.
 */
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { Pixels } from './pixels.js';
import { PNG_SIGNATURE } from './png.js';

const inflateAsync = promisify(inflate);

/** Samples a pixel of each colour type has. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The bit depths each colour type allows. */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** Adam7's seven passes: first column and row, then the steps between them. */
const ADAM7 = [
  [0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2],
] as const;

interface Header {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  interlaced: boolean;
}

/** A sub-image of the file: the whole image, or one Adam7 pass. */
interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

function passesOf(header: Header): Pass[] {
  const { width, height } = header;
  if (!header.interlaced) return [{ x0: 0, y0: 0, dx: 1, dy: 1, width, height }];
  return ADAM7.map(([x0, y0, dx, dy]) => ({
    x0, y0, dx, dy,
    width: width > x0 ? Math.ceil((width - x0) / dx) : 0,
    height: height > y0 ? Math.ceil((height - y0) / dy) : 0,
  })).filter((pass) => pass.width > 0 && pass.height > 0);
}

/** The chunks that matter here, read in order; the rest (text, gamma, time) are passed over. */
function readChunks(bytes: Buffer): { header: Header; palette?: Buffer; transparency?: Buffer; data: Buffer } {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('PNG: no signature');
  let header: Header | undefined;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const data: Buffer[] = [];
  let at = 8;
  for (;;) {
    if (at + 12 > bytes.length) throw new Error('PNG: the file ends before IEND');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length < length) throw new Error(`PNG: chunk ${type} is cut short`);
    at += 12 + length;
    if (header === undefined && type !== 'IHDR') throw new Error('PNG: the first chunk is not IHDR');
    if (type === 'IHDR') header = readHeader(body);
    else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
  }
  if (header === undefined || data.length === 0) throw new Error('PNG: no image data');
  if (header.colourType === 3 && (palette === undefined || palette.length % 3 !== 0)) throw new Error('PNG: a palette image without its palette');
  return { header, palette, transparency, data: Buffer.concat(data) };
}

function readHeader(body: Buffer): Header {
  if (body.length !== 13) throw new Error('PNG: IHDR is not 13 bytes');
  const header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colourType: body[9]!, interlaced: body[12] === 1 };
  if (header.width === 0 || header.height === 0) throw new Error('PNG: an image without pixels');
  if (!DEPTHS[header.colourType]?.includes(header.depth)) throw new Error(`PNG: colour type ${header.colourType} at ${header.depth} bits`);
  if (body[10] !== 0 || body[11] !== 0 || body[12]! > 1) throw new Error('PNG: unknown compression, filter or interlace method');
  return header;
}

/** Undoes the row filters of one pass in place; `rows` starts with each row's filter type byte. */
function unfilter(rows: Buffer, stride: number, height: number, bpp: number): void {
  for (let y = 0; y < height; y += 1) {
    const start = y * (stride + 1);
    const filter = rows[start]!;
    const row = start + 1;
    const up = row - stride - 1;
    for (let i = 0; i < stride; i += 1) {
      const a = i >= bpp ? rows[row + i - bpp]! : 0;
      const b = y > 0 ? rows[up + i]! : 0;
      const c = y > 0 && i >= bpp ? rows[up + i - bpp]! : 0;
      let add: number;
      switch (filter) {
        case 0: add = 0; break;
        case 1: add = a; break;
        case 2: add = b; break;
        case 3: add = (a + b) >> 1; break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`PNG: unknown row filter ${filter}`);
      }
      rows[row + i] = (rows[row + i]! + add) & 0xff;
    }
  }
}

/**
 * Decodes a PNG file to RGBA pixels. Throws on anything that is not a whole, readable PNG;
 * `maxPixels` bounds what a header may announce before anything is inflated.
 */
export async function decodePng(bytes: Buffer, maxPixels: number): Promise<Pixels> {
  const { header, palette, transparency, data: compressed } = readChunks(bytes);
  const { width, height, depth, colourType } = header;
  if (width * height > maxPixels) throw new Error(`PNG: ${width}×${height} is more pixels than the emulator reads`);
  const channels = CHANNELS[colourType]!;
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const passes = passesOf(header);
  const strideOf = (pass: Pass): number => Math.ceil((pass.width * bitsPerPixel) / 8);
  const expected = passes.reduce((sum, pass) => sum + (strideOf(pass) + 1) * pass.height, 0);
  // A bound on the output, so a small file cannot inflate to gigabytes.
  const raw = await inflateAsync(compressed, { maxOutputLength: Math.max(expected, 1) });
  if (raw.length < expected) throw new Error('PNG: the image data is cut short');

  const out = new Uint8ClampedArray(width * height * 4);
  const maxSample = (1 << depth) - 1;
  // tRNS for grey and RGB: the one sample value (at the image's depth) that is transparent.
  const key = transparency && (colourType === 0 || colourType === 2) && transparency.length >= (colourType === 0 ? 2 : 6)
    ? Array.from({ length: colourType === 0 ? 1 : 3 }, (_, k) => transparency.readUInt16BE(k * 2))
    : undefined;
  let offset = 0;
  for (const pass of passes) {
    const stride = strideOf(pass);
    const rows = raw.subarray(offset, offset + (stride + 1) * pass.height);
    offset += rows.length;
    unfilter(rows, stride, pass.height, bpp);
    const sample = (row: number, x: number, channel: number): number => {
      if (depth === 8) return rows[row + x * channels + channel]!;
      if (depth === 16) return rows.readUInt16BE(row + (x * channels + channel) * 2);
      const bit = x * depth;
      return (rows[row + (bit >> 3)]! >> (8 - depth - (bit & 7))) & maxSample;
    };
    const to8 = (value: number): number => (depth === 16 ? value >> 8 : depth === 8 ? value : Math.round((value * 255) / maxSample));
    for (let py = 0; py < pass.height; py += 1) {
      const row = py * (stride + 1) + 1;
      const y = pass.y0 + py * pass.dy;
      for (let px = 0; px < pass.width; px += 1) {
        const o = (y * width + pass.x0 + px * pass.dx) * 4;
        if (colourType === 3) {
          const index = sample(row, px, 0);
          if (index * 3 + 2 >= palette!.length) throw new Error('PNG: a palette index past the palette');
          out[o] = palette![index * 3]!;
          out[o + 1] = palette![index * 3 + 1]!;
          out[o + 2] = palette![index * 3 + 2]!;
          out[o + 3] = transparency && index < transparency.length ? transparency[index]! : 255;
          continue;
        }
        const grey = colourType === 0 || colourType === 4;
        const r = sample(row, px, 0);
        const g = grey ? r : sample(row, px, 1);
        const b = grey ? r : sample(row, px, 2);
        out[o] = to8(r);
        out[o + 1] = to8(g);
        out[o + 2] = to8(b);
        if (colourType === 4 || colourType === 6) out[o + 3] = to8(sample(row, px, grey ? 1 : 3));
        else out[o + 3] = key && key[0] === r && (grey || (key[1] === g && key[2] === b)) ? 0 : 255;
      }
    }
  }
  return { width, height, data: out };
}
