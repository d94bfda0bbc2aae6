/**
 * A PNG writer for tests, apart from the emulator's own code: every colour type and bit depth,
 * any row filter, Adam7 interlacing, a palette and `tRNS`, so the emulator's reader can be checked
 * against files a viewer would take (PNG specification, W3C, 3rd edition).
 */
import { crc32, deflateSync } from 'node:zlib';

export type ColourType = 0 | 2 | 3 | 4 | 6;

export interface PngSpec {
  width: number;
  height: number;
  colourType: ColourType;
  depth: 1 | 2 | 4 | 8 | 16;
  interlaced: boolean;
  /** Colour type 3: the palette, [r, g, b] each. */
  palette?: ReadonlyArray<readonly [number, number, number]>;
  /** The tRNS chunk's bytes, as the file holds them. */
  transparency?: Buffer;
}

const CHANNELS: Record<ColourType, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** One row's bytes: its samples packed at the depth. */
function packRow(samples: readonly number[], depth: number): Buffer {
  if (depth === 16) {
    const out = Buffer.alloc(samples.length * 2);
    samples.forEach((value, i) => out.writeUInt16BE(value, i * 2));
    return out;
  }
  if (depth === 8) return Buffer.from(samples);
  const out = Buffer.alloc(Math.ceil((samples.length * depth) / 8));
  samples.forEach((value, i) => {
    const bit = i * depth;
    out[bit >> 3]! |= value << (8 - depth - (bit & 7));
  });
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** `row` filtered with `type` against `previous` (the row above in the same pass, or none). */
function filterRow(row: Buffer, previous: Buffer | undefined, type: number, bpp: number): Buffer {
  const out = Buffer.alloc(row.length + 1);
  out[0] = type;
  for (let i = 0; i < row.length; i += 1) {
    const a = i >= bpp ? row[i - bpp]! : 0;
    const b = previous ? previous[i]! : 0;
    const c = previous && i >= bpp ? previous[i - bpp]! : 0;
    const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][type] ?? 0;
    out[i + 1] = (row[i]! - predictor) & 0xff;
  }
  return out;
}

/**
 * A PNG file of `spec`: `samples(x, y)` gives a pixel's raw samples at the file's depth (an index
 * for a palette image), `filter(row)` the filter type of each row written (0 to 4; any other is
 * written as it is, its bytes unfiltered, for a test of a damaged file).
 */
export function writePng(spec: PngSpec, samples: (x: number, y: number) => number[], filter: (row: number) => number = () => 0): Buffer {
  const channels = CHANNELS[spec.colourType];
  const bpp = Math.max(1, (channels * spec.depth) >> 3);
  const passes = spec.interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const rows: Buffer[] = [];
  let written = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const width = spec.width > x0 ? Math.ceil((spec.width - x0) / dx) : 0;
    const height = spec.height > y0 ? Math.ceil((spec.height - y0) / dy) : 0;
    if (width === 0 || height === 0) continue;
    let previous: Buffer | undefined;
    for (let py = 0; py < height; py += 1) {
      const row = packRow(Array.from({ length: width }, (_, px) => samples(x0 + px * dx, y0 + py * dy)).flat(), spec.depth);
      rows.push(filterRow(row, previous, filter(written++), bpp));
      previous = row;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(spec.width, 0);
  header.writeUInt32BE(spec.height, 4);
  header[8] = spec.depth;
  header[9] = spec.colourType;
  header[12] = spec.interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(spec.palette ? [chunk('PLTE', Buffer.from(spec.palette.flat()))] : []),
    ...(spec.transparency ? [chunk('tRNS', spec.transparency)] : []),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A data URL of `bytes`, declared as `type`. */
export function dataUrl(bytes: Buffer, type = 'image/png'): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** An RGBA image of one colour. */
export function solid(width: number, height: number, [r, g, b]: readonly [number, number, number]): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < width * height; p += 1) data.set([r, g, b, 255], p * 4);
  return data;
}
