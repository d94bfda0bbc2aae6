/**
 * Decoded rows as the decoder leaves them (RGB or RGBA, rows apart by a stride) and the scaler
 * reading them directly: made plain exactly, opacity told right on every path, and the scaled
 * picture equal, within rounding, to an area average computed the slow and obvious way, for
 * reductions of up to 2× (the scaler's three-tap loop) and larger ones (its general loop).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatten, isOpaque, rowsOf, toPixels, type PixelRows, type Pixels } from '../../src/images/pixels.js';
import { scaleDown } from '../../src/images/scale.js';

/** `pixels` as a PNG decoder leaves them: a filter byte before each row, RGB when opaque. */
function pngLikeRows(pixels: Pixels, channels: 3 | 4): PixelRows {
  const stride = pixels.width * channels + 1;
  const data = new Uint8Array(stride * pixels.height).fill(0xee); // the filter bytes: never read as colour
  for (let y = 0; y < pixels.height; y += 1) {
    for (let x = 0; x < pixels.width; x += 1) {
      for (let c = 0; c < channels; c += 1) data[y * stride + 1 + x * channels + c] = pixels.data[(y * pixels.width + x) * 4 + c]!;
    }
  }
  return { width: pixels.width, height: pixels.height, channels, data, offset: 1, stride };
}

/** The area average of each output pixel, by integrating over the source pixels it covers. */
function referenceScale(pixels: Pixels, width: number, height: number): number[] {
  const out: number[] = [];
  const sx = pixels.width / width;
  const sy = pixels.height / height;
  const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const sums = [0, 0, 0, 0];
      for (let v = Math.floor(y * sy); v < Math.min(pixels.height, Math.ceil((y + 1) * sy)); v += 1) {
        for (let u = Math.floor(x * sx); u < Math.min(pixels.width, Math.ceil((x + 1) * sx)); u += 1) {
          const area = overlap(x * sx, (x + 1) * sx, u, u + 1) * overlap(y * sy, (y + 1) * sy, v, v + 1);
          const i = (v * pixels.width + u) * 4;
          const alpha = pixels.data[i + 3]! * area;
          for (let c = 0; c < 3; c += 1) sums[c] = sums[c]! + pixels.data[i + c]! * alpha;
          sums[3] = sums[3]! + alpha;
        }
      }
      const a = sums[3]! / (sx * sy);
      out.push(...[0, 1, 2].map((c) => (sums[3]! > 0 ? sums[c]! / sums[3]! : 0)), a);
    }
  }
  return out;
}

const picture = (width: number, height: number, seed: number, opaque: boolean): Pixels => {
  const data = new Uint8Array(width * height * 4);
  let state = seed;
  for (let i = 0; i < data.length; i += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    data[i] = i % 4 === 3 ? (opaque ? 255 : state >> 23) : state >> 23;
  }
  return { width, height, data };
};

describe('rows made plain', () => {
  it('RGB rows with a byte between them become RGBA with alpha 255, and plain RGBA is not copied', () => {
    const pixels = picture(5, 3, 7, true);
    const rows = pngLikeRows(pixels, 3);
    expect([...toPixels(rows).data]).toEqual([...pixels.data]);
    expect([...toPixels(pngLikeRows(pixels, 4)).data]).toEqual([...pixels.data]);
    expect(toPixels(rowsOf(pixels)).data).toBe(pixels.data);
  });

  it('opacity is read right word by word and byte by byte (a view that does not start on a word)', () => {
    const pixels = picture(6, 4, 3, true);
    expect(isOpaque(pixels)).toBe(true);
    const shifted = new Uint8Array(pixels.data.length + 1);
    shifted.set(pixels.data, 1);
    const unaligned = { ...pixels, data: shifted.subarray(1) };
    expect(isOpaque(unaligned)).toBe(true);
    pixels.data[4 * 13 + 3] = 254;
    unaligned.data[4 * 13 + 3] = 254;
    expect(isOpaque(pixels)).toBe(false);
    expect(isOpaque(unaligned)).toBe(false);
  });

  it('flattening opaque pixels gives them back as they are; with transparency, a copy', () => {
    const opaque = picture(4, 4, 1, true);
    expect(flatten(opaque)).toBe(opaque);
    const clear = picture(4, 4, 1, false);
    expect(flatten(clear)).not.toBe(clear);
  });
});

describe('scaleDown against the area average worked out by hand', () => {
  it('opaque and transparent pictures, any size, up to 2× and far beyond, from RGBA or from decoder rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 1, max: 9, noNaN: true }),
        fc.double({ min: 1, max: 9, noNaN: true }),
        fc.boolean(),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (width, height, ratioX, ratioY, opaque, seed) => {
          const pixels = picture(width, height, seed, opaque);
          const w = Math.max(1, Math.floor(width / ratioX));
          const h = Math.max(1, Math.floor(height / ratioY));
          const expected = referenceScale(pixels, w, h);
          const sources: Array<Pixels | PixelRows> = [pixels, pngLikeRows(pixels, 4)];
          if (opaque) sources.push(pngLikeRows(pixels, 3));
          for (const source of sources) {
            const scaled = scaleDown(source, w, h);
            expect(scaled.width * scaled.height).toBe(w * h);
            for (let i = 0; i < expected.length; i += 1) {
              // Colour under a nearly transparent average is too faint to matter (and to pin down).
              if (i % 4 !== 3 && expected[i - (i % 4) + 3]! < 8) continue;
              expect(Math.abs(scaled.data[i]! - expected[i]!), `byte ${i} of ${w}×${h} from ${width}×${height}`).toBeLessThanOrEqual(1);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
