/**
 * The fast PNG path (8-bit RGB/RGBA, not interlaced) gives exactly what pngjs gives, for every row
 * filter, in one IDAT or many; leaves every other kind of PNG to pngjs; and refuses damage.
 */
import { crc32, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { PNG, type ColorType } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeRgbPngRows } from '../../src/images/png-rgb.js';
import { toPixels } from '../../src/images/pixels.js';

/** The fast reader's rows as plain RGBA pixels (undefined when it leaves the file to the general decoder). */
const decodeRgbPng = (file: Buffer) => {
  const rows = decodeRgbPngRows(file);
  return rows && toPixels(rows);
};

function encode(data: Uint8Array, width: number, height: number, colorType: ColorType, filterType: number, options: { bitDepth?: 8 | 16 } = {}): Buffer {
  const image = new PNG({ width, height });
  image.data = Buffer.from(data);
  return PNG.sync.write(image, { colorType, filterType, bitDepth: options.bitDepth ?? 8, inputColorType: 6, inputHasAlpha: true });
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The same PNG with its one IDAT cut into IDATs of `size` bytes (encoders may write either). */
function splitIdat(file: Buffer, size: number): Buffer {
  const at = file.indexOf('IDAT') - 4;
  const length = file.readUInt32BE(at);
  const data = file.subarray(at + 8, at + 8 + length);
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += size) pieces.push(chunk('IDAT', data.subarray(offset, offset + size)));
  return Buffer.concat([file.subarray(0, at), ...pieces, file.subarray(at + 12 + length)]);
}

/** The PNG with its image data replaced by `idat` (already compressed). */
function withImageData(file: Buffer, idat: Buffer): Buffer {
  const at = file.indexOf('IDAT') - 4;
  return Buffer.concat([file.subarray(0, at), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

describe('decodeRgbPng', () => {
  it('matches pngjs for RGB and RGBA, every filter and adaptive filtering, one IDAT or many', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 23 }),
        fc.integer({ min: 1, max: 17 }),
        fc.constantFrom<ColorType>(2, 6),
        fc.constantFrom(0, 1, 2, 3, 4, -1),
        fc.boolean(),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (width, height, colorType, filterType, manyChunks, seed) => {
          // Pixels with structure (so every filter gets used by the adaptive choice) and noise.
          const data = new Uint8Array(width * height * 4);
          let state = seed;
          for (let i = 0; i < data.length; i += 1) {
            state = (state * 1103515245 + 12345) & 0x7fffffff;
            data[i] = (i % 4 === 3 ? 128 + (state % 128) : ((i >> 2) % width) * 9 + (state % 40)) & 255;
          }
          const whole = encode(data, width, height, colorType, filterType);
          const file = manyChunks ? splitIdat(whole, 7) : whole;
          const expected = PNG.sync.read(file);
          const fast = decodeRgbPng(file);
          expect(fast).toBeDefined();
          expect([fast!.width, fast!.height]).toEqual([width, height]);
          expect(Buffer.from(fast!.data)).toEqual(expected.data);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('several IDAT chunks are joined', () => {
    const data = new Uint8Array(40 * 40 * 4).map((_, i) => (i * 7) & 255);
    const file = splitIdat(encode(data, 40, 40, 6, 4), 64);
    expect(file.toString('latin1').split('IDAT').length - 1).toBeGreaterThan(3);
    expect(Buffer.from(decodeRgbPng(file)!.data)).toEqual(Buffer.from(data));
  });

  it.each([
    ['grey', () => encode(new Uint8Array(16).fill(9), 2, 2, 0, 0)],
    ['grey with alpha', () => encode(new Uint8Array(16).fill(9), 2, 2, 4, 0)],
    ['16 bits a channel', () => encode(new Uint8Array(32).fill(9), 2, 2, 6, 0, { bitDepth: 16 })],
    [
      'interlaced',
      () => {
        const file = encode(new Uint8Array(16).fill(9), 2, 2, 6, 0);
        file[28] = 1; // the IHDR interlace byte (the CRC no longer matches: never read that far)
        return file;
      },
    ],
    [
      'palette',
      () => {
        const file = encode(new Uint8Array(16).fill(9), 2, 2, 2, 0);
        file[25] = 3;
        return file;
      },
    ],
  ])('%s: left to pngjs', (_, make) => {
    expect(decodeRgbPng(make())).toBeUndefined();
  });

  it('damage is an error, never a wrong picture', () => {
    const data = new Uint8Array(30 * 20 * 4).map((_, i) => (i * 2654435761) >>> 24);
    const file = encode(data, 30, 20, 6, 1);
    const idat = file.indexOf('IDAT');
    // Cut inside the image data.
    expect(() => decodeRgbPng(file.subarray(0, idat + 100))).toThrow('a chunk runs past the end of the file');
    // No image data at all.
    expect(() => decodeRgbPng(file.subarray(0, idat - 4))).toThrow('the file holds no image data');
    // Image data that inflates to less than the picture needs.
    expect(() => decodeRgbPng(withImageData(file, deflateSync(Buffer.alloc(10))))).toThrow('the image data is shorter than the picture');
    // An unknown row filter.
    const raw = Buffer.alloc((30 * 4 + 1) * 20);
    raw[0] = 9;
    expect(() => decodeRgbPng(withImageData(file, deflateSync(raw)))).toThrow('unknown row filter 9');
  });

  it('a zip bomb stops at the picture’s size', () => {
    // 2 × 2 RGBA needs 18 bytes; this image data would inflate to 50 MB.
    const file = encode(new Uint8Array(16), 2, 2, 6, 0);
    expect(() => decodeRgbPng(withImageData(file, deflateSync(Buffer.alloc(50_000_000))))).toThrow(/larger|buffer/i);
  });
});
