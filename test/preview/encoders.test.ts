/**
 * Each preview encoder on small images, read back by an independent parser
 * (test/helpers/terminal-images.ts): kitty's and iTerm2's payloads give back exactly the pixels,
 * sixel parses to the picture's size and colours, half blocks carry the right two colours a cell.
 */
import { describe, expect, it } from 'vitest';
import { halfBlocks, xterm256 } from '../../src/preview/encoders/blocks.js';
import { itermImage } from '../../src/preview/encoders/iterm.js';
import { kittyImage } from '../../src/preview/encoders/kitty.js';
import { quantise, sixelImage } from '../../src/preview/encoders/sixel.js';
import type { Pixels } from '../../src/images/pixels.js';
import { halfBlockPixels, itermImages, kittyImages, paletteColour, sixelImages, withoutPreviewEscapes } from '../helpers/terminal-images.js';

/** A small picture with distinct colours in every pixel (and some transparency when asked). */
function picture(width: number, height: number, alpha = false): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      data.set([(x * 37 + y * 11) % 256, (x * 13 + y * 71) % 256, (x * 101 + y * 5) % 256, alpha ? (x * 50 + y * 30) % 256 : 255], i);
    }
  }
  return { width, height, data };
}

describe('kitty', () => {
  it('carries exactly the pixels, RGBA, compressed, with both cell counts (older kitty stretches one)', () => {
    const pixels = picture(7, 5, true);
    const text = kittyImage(pixels, { columns: 3, rows: 2 });
    const [image, ...others] = kittyImages(text);
    expect(others).toEqual([]);
    expect(image!.control).toEqual({ a: 'T', f: '32', o: 'z', s: '7', v: '5', c: '3', r: '2', q: '2', m: '0' });
    expect(Buffer.from(image!.pixels.data)).toEqual(Buffer.from(pixels.data));
  });

  it('splits a large picture into escapes of at most 4096 payload bytes, the keys in the first only', () => {
    // Noise does not compress: several chunks for sure.
    const pixels = picture(160, 120, true);
    for (let i = 0; i < pixels.data.length; i += 1) pixels.data[i] = (i * 2654435761) >>> 24;
    const text = kittyImage(pixels, { columns: 16, rows: 6 });
    const [image] = kittyImages(text);
    expect(image!.chunks).toBeGreaterThan(3);
    expect(Math.max(...image!.chunkLengths)).toBeLessThanOrEqual(4096);
    expect(image!.chunkLengths.slice(0, -1).every((length) => length === 4096)).toBe(true);
    expect(text.match(/\x1b_G[^;]*s=/g)).toHaveLength(1);
    expect(Buffer.from(image!.pixels.data)).toEqual(Buffer.from(pixels.data));
  });
});

describe('iTerm2', () => {
  it('carries a PNG that decodes to exactly the pixels, with its size and the cells, and no name', () => {
    const pixels = picture(9, 4, true);
    const text = itermImage(pixels, { columns: 5, rows: 2 });
    const [image, ...others] = itermImages(text);
    expect(others).toEqual([]);
    expect(image!.args).toEqual({ inline: '1', size: String(image!.file.length), width: '5', height: '2', preserveAspectRatio: '1' });
    expect(image!.pixels.width).toBe(9);
    expect(Buffer.from(image!.pixels.data)).toEqual(Buffer.from(pixels.data));
  });

  it('an opaque picture goes as an RGB PNG (a quarter smaller), still exactly the pixels', () => {
    const pixels = picture(9, 4);
    const [image] = itermImages(itermImage(pixels, { columns: 5, rows: 2 }));
    expect(image!.file[25]).toBe(2); // IHDR colour type: truecolour, no alpha
    expect(Buffer.from(image!.pixels.data)).toEqual(Buffer.from(pixels.data));
    const [transparent] = itermImages(itermImage(picture(9, 4, true), { columns: 5, rows: 2 }));
    expect(transparent!.file[25]).toBe(6);
  });
});

describe('sixel', () => {
  it('parses to the picture, its size declared, its colours those of the palette levels', () => {
    // Colours on the palette's own levels (6 of red and blue, 7 of green) come back unchanged.
    const levels = (count: number, n: number) => Math.round((n * 255) / (count - 1));
    const width = 13;
    const height = 9; // not a multiple of six: a partial last band
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i += 1) data.set([levels(6, i % 6), levels(7, (i * 3) % 7), levels(6, (i * 5) % 6), 255], i * 4);
    const text = sixelImage({ width, height, data }).toString('latin1');
    const [image, ...others] = sixelImages(text);
    expect(others).toEqual([]);
    expect(image!.raster).toBe('1;1;13;9');
    expect(image!.pixels.width).toBe(width);
    expect(image!.pixels.height).toBe(height);
    for (let i = 0; i < width * height * 4; i += 1) {
      // The palette is given in whole percent: a level comes back within 2 of its value.
      expect(Math.abs(image!.pixels.data[i]! - data[i]!), `byte ${i}`).toBeLessThanOrEqual(2);
    }
  });

  it('dithers colours between levels so that areas keep their mean colour', () => {
    const width = 60;
    const height = 30;
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i += 1) data.set([120, 200, 30, 255], i * 4);
    const indices = quantise({ width, height, data });
    expect(new Set(indices).size).toBeGreaterThan(1);
    const [image] = sixelImages(sixelImage({ width, height, data }).toString('latin1'));
    const mean = [0, 1, 2].map((c) => {
      let sum = 0;
      for (let i = 0; i < width * height; i += 1) sum += image!.pixels.data[i * 4 + c]!;
      return sum / (width * height);
    });
    expect(mean[0]).toBeCloseTo(120, -1);
    expect(mean[1]).toBeCloseTo(200, -1);
    expect(mean[2]).toBeCloseTo(30, -1);
  });

  it('writes only the format: the DCS, numbers, and sixel characters', () => {
    const text = sixelImage(picture(20, 14)).toString('latin1');
    expect(text.startsWith('\x1bP0;1;0q"1;1;20;14')).toBe(true);
    expect(text.endsWith('\x1b\\')).toBe(true);
    expect(text.slice(2, -2)).toMatch(/^[0-9;q"#!$\-?-~]*$/);
  });
});

describe('half blocks', () => {
  it('24-bit: the upper pixel is the foreground, the lower the background, line by line', () => {
    const pixels = picture(5, 4);
    const text = halfBlocks(pixels, 'truecolor');
    expect(text.split('\n')).toHaveLength(3); // two lines and the end
    const back = halfBlockPixels(text);
    expect(back.width).toBe(5);
    expect(back.height).toBe(4);
    expect(Buffer.from(back.data)).toEqual(Buffer.from(pixels.data));
    expect(withoutPreviewEscapes(text).replaceAll('▀', '')).toBe('\n\n');
  });

  it('an odd last row keeps the terminal background under it', () => {
    const pixels = picture(3, 3);
    const text = halfBlocks(pixels, 'truecolor');
    expect(text.split('\n')[1]).toContain(';49m');
    const back = halfBlockPixels(text);
    expect(back.height).toBe(3);
    expect(Buffer.from(back.data)).toEqual(Buffer.from(pixels.data));
  });

  it('transparent pixels are drawn over black (a terminal cell has no alpha)', () => {
    const back = halfBlockPixels(halfBlocks({ width: 1, height: 2, data: Uint8Array.of(200, 100, 50, 0, 200, 100, 50, 128) }, 'truecolor'));
    expect([...back.data]).toEqual([0, 0, 0, 255, 100, 50, 25, 255]);
  });

  it('256 colours: each pixel becomes its nearest palette colour', () => {
    const pixels = picture(6, 2);
    const back = halfBlockPixels(halfBlocks(pixels, '256'));
    for (let i = 0; i < 12; i += 1) {
      const [r, g, b] = [pixels.data[i * 4]!, pixels.data[i * 4 + 1]!, pixels.data[i * 4 + 2]!];
      expect([...back.data.subarray(i * 4, i * 4 + 3)]).toEqual(paletteColour(xterm256(r, g, b)));
    }
  });

  it('a run of cells of the same colours repeats the block, not the escape', () => {
    const data = new Uint8Array(40 * 2 * 4).fill(90);
    const text = halfBlocks({ width: 40, height: 2, data }, 'truecolor');
    expect(text.match(/\x1b\[/g)).toHaveLength(2); // the colours once, the reset once
  });
});

describe('xterm256', () => {
  it.each([
    [[0, 0, 0], 16],
    [[255, 255, 255], 231],
    [[255, 0, 0], 196],
    [[0, 255, 0], 46],
    [[0, 0, 255], 21],
    [[95, 135, 175], 67],
    [[128, 128, 128], 244], // a grey between cube levels: the grey ramp is nearer
    [[8, 8, 8], 232],
    [[238, 238, 238], 255],
  ] as const)('%j → %i', ([r, g, b], index) => {
    expect(xterm256(r, g, b)).toBe(index);
  });

  it('keeps a hue (issue 26, item 3): a muted or dark colour gets a cube entry, never the grey ramp', () => {
    for (const [r, g, b] of [[90, 60, 40], [60, 40, 30], [40, 70, 45], [70, 80, 110], [150, 120, 100]] as const) {
      const index = xterm256(r, g, b);
      expect(index, `${r},${g},${b}`).toBeLessThan(232);
    }
  });

  it('a coloured pixel gets the nearest of the 216 cube colours; a near-grey one the nearest of all 240', () => {
    for (let r = 0; r < 256; r += 17) {
      for (let g = 0; g < 256; g += 23) {
        for (let b = 0; b < 256; b += 29) {
          const distance = (index: number) => paletteColour(index).reduce((sum, c, k) => sum + (c - [r, g, b][k]!) ** 2, 0);
          const neutral = Math.max(r, g, b) - Math.min(r, g, b) < 16;
          let best = Infinity;
          for (let index = 16; index < (neutral ? 256 : 232); index += 1) best = Math.min(best, distance(index));
          expect(distance(xterm256(r, g, b))).toBe(best);
        }
      }
    }
  });
});
