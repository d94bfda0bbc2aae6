/**
 * Decoding for the preview: PNG in its colour types and depths, JPEG and WebP (lossy, and
 * lossless with alpha), each back to the pixels it was made from; a damaged or oversized file is
 * a PreviewDecodeError that quotes nothing of the file.
 */
import { PNG, type ColorType } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import { encodeJpeg, encodeWebp } from '@svc/emulator/images';
import { decodeRows, MAX_PREVIEW_PIXELS, PreviewDecodeError } from '../../src/images/decode.js';
import { toPixels } from '../../src/images/pixels.js';
import { jpeg as jpegHeader, png as pngHeader } from '../helpers/fake-images.js';

/** A file's pixels as plain RGBA, as the preview decodes them. */
const decodeImage = async (bytes: Uint8Array) => toPixels(await decodeRows(bytes));

/** A smooth picture (what lossy codecs keep well): gradients in each channel, opaque. */
function gradient(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data.set([Math.round((x * 255) / (width - 1)), Math.round((y * 255) / (height - 1)), 128, 255], (y * width + x) * 4);
  }
  return data;
}

function pngOf(data: Uint8Array, width: number, height: number, colorType: ColorType, bitDepth: 8 | 16 = 8): Buffer {
  const image = new PNG({ width, height });
  // pngjs takes 16-bit input as 16-bit values in the platform's order: v × 257 maps 0..255 onto 0..65535.
  image.data = bitDepth === 16 ? Buffer.from(Uint16Array.from(data, (v) => v * 257).buffer) : Buffer.from(data);
  return PNG.sync.write(image, { colorType, bitDepth, inputColorType: 6, inputHasAlpha: true });
}

function largestDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i += 1) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

describe('decodeImage', () => {
  const width = 48;
  const height = 32;
  const pixels = gradient(width, height);

  it.each([
    ['RGBA', 6, 8],
    ['RGB', 2, 8],
    ['RGBA, 16 bits a channel', 6, 16],
  ] as const)('PNG %s gives back the exact pixels', async (_, colorType, bitDepth) => {
    const image = await decodeImage(pngOf(pixels, width, height, colorType, bitDepth));
    expect(image.width).toBe(width);
    expect(image.height).toBe(height);
    expect(Buffer.from(image.data)).toEqual(Buffer.from(pixels));
  });

  it('PNG grey with alpha keeps the transparency', async () => {
    const grey = new Uint8Array(4 * 4).fill(0);
    grey.set([90, 90, 90, 255, 90, 90, 90, 0, 200, 200, 200, 128, 10, 10, 10, 255]);
    const image = await decodeImage(pngOf(grey, 2, 2, 4));
    expect([...image.data]).toEqual([...grey]);
  });

  it('JPEG (mozjpeg) comes back within the codec’s loss', async () => {
    const image = await decodeImage(await encodeJpeg(pixels, width, height));
    expect([image.width, image.height]).toEqual([width, height]);
    expect(largestDifference(image.data, pixels)).toBeLessThan(24);
  });

  it('WebP (libwebp) comes back within the codec’s loss', async () => {
    const image = await decodeImage(await encodeWebp(new Uint8ClampedArray(pixels), width, height));
    expect([image.width, image.height]).toEqual([width, height]);
    expect(largestDifference(image.data, pixels)).toBeLessThan(24);
  });

  it('a damaged file of a known format: PreviewDecodeError naming the format only', async () => {
    const damaged = Buffer.concat([pngHeader(64, 64), Buffer.from('\x1b]0;owned\x07 not really a png')]);
    const error = await decodeImage(damaged).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PreviewDecodeError);
    expect((error as Error).message).toBe('the png file could not be decoded');
  });

  it('a damaged JPEG: the codec’s own warnings never reach stderr', async () => {
    const printed = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'log'), vi.spyOn(process.stderr, 'write')];
    try {
      // A fresh decoder module, so the codec is set up while the spies are in place (Emscripten
      // binds console.error once, when the codec starts).
      vi.resetModules();
      const { decodeRows } = await import('../../src/images/decode.js');
      const decodeImage = async (bytes: Uint8Array) => toPixels(await decodeRows(bytes));
      const error = await decodeImage(Buffer.concat([jpegHeader(8, 8), Buffer.alloc(30)])).catch((caught: unknown) => caught);
      expect((error as Error).message).toBe('the jpeg file could not be decoded');
      const truncated = (await encodeJpeg(gradient(16, 16), 16, 16)).subarray(0, 200);
      await decodeImage(truncated).catch(() => undefined);
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of printed) spy.mockRestore();
    }
  });

  it('an unknown format, and a picture too large to preview, are refused before any decoder runs', async () => {
    await expect(decodeImage(Buffer.from('GIF89a...'))).rejects.toThrow(new PreviewDecodeError('not a PNG, JPEG or WebP file'));
    const side = Math.ceil(Math.sqrt(MAX_PREVIEW_PIXELS)) + 1;
    await expect(decodeImage(pngHeader(side, side))).rejects.toThrow(new PreviewDecodeError(`${side}×${side} is too large to preview`));
  });
});
