/**
 * Reading the images a message carries (core/images/decode.ts, png-decode.ts) and saying what
 * they show (extras/text/seen-images.ts): every PNG a viewer takes, JPEG, WebP and GIF told by
 * their bytes, damaged files refused, colours named, and images counted as OpenAI counts them.
 */
import fc from 'fast-check';
import { GifWriter } from 'omggif';
import { describe, expect, it } from 'vitest';
import { decodeImage, MAX_INPUT_PIXELS, sniffImage } from '../src/core/images/decode.js';
import { decodePng } from '../src/core/images/png-decode.js';
import { imageTokens } from '../src/core/tokenizer.js';
import { colourName, colourWords, describeImage, describeImages } from '../src/extras/text/seen-images.js';
import { encodeJpeg, encodePng, encodeWebp } from '../src/images.js';
import { solid, writePng, type ColourType, type PngSpec } from './helpers/png-write.js';

/** The colour types and the depths each allows. */
const KINDS: Array<[ColourType, PngSpec['depth']]> = [
  [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [2, 8], [2, 16], [3, 1], [3, 2], [3, 4], [3, 8], [4, 8], [4, 16], [6, 8], [6, 16],
];

/** A small GIF of `frames` frames, each `width`×`height` of palette indices. */
function gif(width: number, height: number, indices: number[], frames = 1): Buffer {
  const buffer = Buffer.alloc(4096 + width * height * frames * 2);
  const writer = new GifWriter(buffer, width, height, { palette: [0xff0000, 0xffffff, 0x000080, 0x00ff00] });
  for (let frame = 0; frame < frames; frame += 1) writer.addFrame(0, 0, width, height, indices, { delay: 10 });
  return buffer.subarray(0, writer.end());
}

describe('the PNG reader', () => {
  it('reads every colour type, bit depth, row filter and interlacing to the right RGBA pixels', async () => {
    const spec = fc.record({
      kind: fc.constantFrom(...KINDS),
      width: fc.integer({ min: 1, max: 19 }),
      height: fc.integer({ min: 1, max: 19 }),
      interlaced: fc.boolean(),
      seed: fc.integer({ min: 0, max: 2 ** 31 }),
      filters: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }),
      keyed: fc.boolean(),
    });
    await fc.assert(fc.asyncProperty(spec, async ({ kind: [colourType, depth], width, height, interlaced, seed, filters, keyed }) => {
      const max = 2 ** depth - 1;
      // Deterministic samples from the seed: a simple linear congruential sequence.
      let state = seed;
      const next = (limit: number): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) % (limit + 1);
      const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType];
      const paletteSize = Math.min(2 ** depth, 7);
      const palette = Array.from({ length: paletteSize }, () => [next(255), next(255), next(255)] as const);
      const alphas = Buffer.from(Array.from({ length: paletteSize - 1 }, () => next(255)));
      const raw = Array.from({ length: width * height }, () => Array.from({ length: channels }, () => next(colourType === 3 ? paletteSize - 1 : max)));
      // tRNS: a key colour for grey and RGB (the first pixel's, so it is met), alphas for a palette.
      const key = keyed && (colourType === 0 || colourType === 2) ? raw[0]! : undefined;
      const transparency = colourType === 3 && keyed ? alphas : key ? Buffer.concat(key.map((value) => Buffer.from([value >> 8, value & 0xff]))) : undefined;
      const file = writePng({ width, height, colourType, depth, interlaced, ...(colourType === 3 ? { palette } : {}), ...(transparency ? { transparency } : {}) }, (x, y) => raw[y * width + x]!, (row) => filters[row % filters.length]!);
      const to8 = (value: number): number => (depth === 16 ? value >> 8 : depth === 8 ? value : Math.round((value * 255) / max));
      const expected = raw.flatMap((samples) => {
        if (colourType === 3) {
          const [index] = samples as [number];
          return [...palette[index]!, transparency && index < transparency.length ? transparency[index]! : 255];
        }
        const opaque = key && key.every((value, at) => value === samples[at]) ? 0 : 255;
        if (colourType === 0) return [to8(samples[0]!), to8(samples[0]!), to8(samples[0]!), opaque];
        if (colourType === 4) return [to8(samples[0]!), to8(samples[0]!), to8(samples[0]!), to8(samples[1]!)];
        return [to8(samples[0]!), to8(samples[1]!), to8(samples[2]!), colourType === 6 ? to8(samples[3]!) : opaque];
      });
      const read = await decodePng(file, MAX_INPUT_PIXELS);
      expect({ width: read.width, height: read.height }).toEqual({ width, height });
      expect([...read.data]).toEqual(expected);
    }), { numRuns: 300 });
  });

  it('refuses a damaged file, and a header that announces too many pixels, before inflating', async () => {
    const good = writePng({ width: 4, height: 4, colourType: 2, depth: 8, interlaced: false }, () => [10, 20, 30]);
    const idat = good.indexOf('IDAT');
    const withHeader = (width: number, height: number, depth = 8, colourType = 2): Buffer => {
      const bytes = Buffer.from(good);
      bytes.writeUInt32BE(width, 16);
      bytes.writeUInt32BE(height, 20);
      bytes[24] = depth;
      bytes[25] = colourType;
      return bytes;
    };
    const cases: Array<[string, Buffer, RegExp]> = [
      ['cut in its image data', good.subarray(0, idat + 10), /cut short|ends before IEND/],
      ['without IEND', good.subarray(0, good.length - 12), /ends before IEND/],
      ['with a depth its colour type does not allow', withHeader(4, 4, 4, 2), /colour type 2 at 4 bits/],
      ['announcing more rows than it holds', withHeader(4, 400), /cut short/],
      ['announcing 100000×100000 pixels', withHeader(100_000, 100_000), /more pixels than the emulator reads/],
      ['a palette image with no palette', writePng({ width: 2, height: 2, colourType: 3, depth: 8, interlaced: false }, () => [0]), /without its palette/],
      ['with an index past its palette', writePng({ width: 2, height: 2, colourType: 3, depth: 8, interlaced: false, palette: [[1, 2, 3]] }, () => [5]), /past the palette/],
      ['with an unknown row filter', writePng({ width: 2, height: 2, colourType: 2, depth: 8, interlaced: false }, () => [1, 2, 3], () => 5), /unknown row filter 5/],
      ['that is not a PNG', Buffer.from('GIF89a, not a PNG at all'), /no signature/],
    ];
    for (const [what, bytes, message] of cases) await expect(decodePng(bytes, MAX_INPUT_PIXELS), what).rejects.toThrow(message);
  });
});

describe('any image a message may carry', () => {
  const red = solid(40, 30, [220, 20, 30]);

  it('is told by its bytes and read to its size and pixels: PNG, JPEG, WebP, GIF (its first frame, its frames counted)', async () => {
    const files = {
      png: await encodePng(red, 40, 30),
      jpeg: await encodeJpeg(red, 40, 30),
      webp: await encodeWebp(red, 40, 30),
      gif: gif(40, 30, Array.from({ length: 1200 }, () => 0), 3),
    };
    for (const [format, bytes] of Object.entries(files)) {
      expect(sniffImage(bytes)).toBe(format);
      const read = await decodeImage(bytes);
      expect({ format: read.format, width: read.width, height: read.height, frames: read.frames }).toEqual({ format, width: 40, height: 30, frames: format === 'gif' ? 3 : 1 });
      expect(colourName(read.data[0]!, read.data[1]!, read.data[2]!)).toBe('red');
    }
  });

  it('refuses what is none of them, or a file of one of them cut short', async () => {
    const jpeg = await encodeJpeg(red, 40, 30);
    const webp = await encodeWebp(red, 40, 30);
    const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]);
    for (const bytes of [bmp, Buffer.from('not an image at all')]) {
      expect(sniffImage(bytes)).toBeUndefined();
      await expect(decodeImage(bytes)).rejects.toThrow('not a PNG, JPEG, GIF or WebP file');
    }
    for (const bytes of [jpeg.subarray(0, 40), webp.subarray(0, 40), gif(4, 4, Array.from({ length: 16 }, () => 1)).subarray(0, 20)]) {
      expect(sniffImage(bytes)).toBeDefined();
      await expect(decodeImage(bytes)).rejects.toThrow();
    }
    // A failure leaves the WebAssembly decoders working.
    expect((await decodeImage(jpeg)).width).toBe(40);
    expect((await decodeImage(webp)).width).toBe(40);
  });
});

describe('colours in words', () => {
  it.each([
    [[0, 0, 0], 'black'], [[255, 255, 255], 'white'], [[128, 128, 128], 'grey'], [[64, 64, 64], 'dark grey'], [[200, 200, 200], 'light grey'],
    [[255, 0, 0], 'red'], [[0, 255, 0], 'green'], [[0, 128, 0], 'dark green'], [[0, 0, 255], 'blue'], [[0, 0, 128], 'dark blue'],
    [[135, 206, 250], 'light blue'], [[255, 255, 0], 'yellow'], [[255, 165, 0], 'orange'], [[139, 69, 19], 'brown'], [[255, 192, 203], 'pink'],
    [[255, 105, 180], 'pink'], [[128, 0, 128], 'dark purple'], [[160, 32, 240], 'purple'], [[0, 255, 255], 'cyan'],
  ] as Array<[[number, number, number], string]>)('%j is %s', ([r, g, b], name) => {
    expect(colourName(r, g, b)).toBe(name);
  });

  const split = (shares: Array<[readonly [number, number, number, number], number]>): { width: number; height: number; data: Uint8ClampedArray } => {
    const data = new Uint8ClampedArray(100 * 4);
    let at = 0;
    for (const [rgba, count] of shares) for (let k = 0; k < count; k += 1) data.set(rgba, 4 * at++);
    return { width: 10, height: 10, data };
  };

  it('says how much of the image each main colour takes', () => {
    expect(colourWords(split([[[220, 20, 30, 255], 100]]))).toBe('entirely red');
    expect(colourWords(split([[[0, 0, 128, 255], 70], [[255, 255, 255, 255], 30]]))).toBe('mostly dark blue and white');
    expect(colourWords(split([[[0, 0, 128, 255], 60], [[255, 255, 255, 255], 35], [[255, 0, 0, 255], 5]]))).toBe('mostly dark blue and white');
    expect(colourWords(split([[[255, 0, 0, 255], 34], [[0, 255, 0, 255], 33], [[0, 0, 255, 255], 33]]))).toBe('a mix of red, green and blue');
    expect(colourWords(split([[[0, 0, 0, 0], 80], [[255, 0, 0, 255], 20]]))).toBe('mostly transparent and red');
  });

  it('describes an image by its size, format and colours, and a link as not fetched', async () => {
    const read = await decodeImage(await encodePng(solid(640, 480, [0, 0, 128]), 640, 480));
    expect(describeImage(read)).toBe('a 640×480 PNG image, entirely dark blue');
    expect(describeImage({ ...read, format: 'gif', frames: 4 })).toBe('a 640×480 GIF image (animated, 4 frames), entirely dark blue');
    expect(describeImages([{ read }])).toBe('The image you sent is a 640×480 PNG image, entirely dark blue.');
    expect(describeImages([{ read }, { url: 'https://example.com/cat.png' }])).toBe(
      'Image 1 is a 640×480 PNG image, entirely dark blue. Image 2, at https://example.com/cat.png, was not fetched: the emulator works offline, so it cannot say what it shows.',
    );
  });
});

describe("an image's tokens, as OpenAI counts them", () => {
  it.each([
    ['low detail, any size', { width: 4096, height: 8192 }, 'low', 85],
    ['a link, its size unknown', undefined, 'high', 85],
    ['1024×1024 high: scaled to 768×768, four tiles', { width: 1024, height: 1024 }, 'high', 765],
    ['2048×4096 high: 1024×2048, then 768×1536, six tiles', { width: 2048, height: 4096 }, 'high', 1105],
    ['auto counts as high', { width: 1024, height: 1024 }, 'auto', 765],
    ['a small image is not scaled up: one tile', { width: 300, height: 200 }, 'high', 255],
  ] as const)('%s: %i', (_what, size, detail, tokens) => {
    expect(imageTokens(size, detail)).toBe(tokens);
  });
});
