/**
 * Every aspect ratio in every format: the answer's shape, real encoded files whose header says the
 * promised format and size, usage counts, and pictures that are pictures (not a flat colour).
 */
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { countTokens } from '../src/core/tokenizer.js';
import { decodePng, meanDifference, readHeader, sniff } from './helpers/image-files.js';
import { generate, imageBody, imageBytes } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

/** The table the README quotes, written out again so a change to the code has to be deliberate. */
const SIZES: [string, number, number][] = [
  ['1:1', 1024, 1024],
  ['16:9', 1344, 756],
  ['9:16', 756, 1344],
  ['4:3', 1152, 864],
  ['3:4', 864, 1152],
  ['21:9', 1512, 648],
];
const FORMATS = ['png', 'jpeg', 'webp'] as const;
const matrix = SIZES.flatMap(([ratio, width, height]) => FORMATS.map((format) => [ratio, format, width, height] as const));

describe('every aspect ratio in every format', () => {
  it.each(matrix)('%s as %s: a real file of %i×%i', async (ratio, format, width, height) => {
    const answer = await generate(emu, imageBody({ aspect_ratio: ratio, output_format: format, seed: 1 }));
    const bytes = imageBytes(answer);
    // The magic bytes (a WebP's are RIFF, then WEBP at byte 8), read by the helper that knows no emulator code.
    expect(sniff(bytes)).toBe(format);
    expect(readHeader(bytes)).toEqual({ format, width, height });
    const [a, b] = ratio.split(':').map(Number) as [number, number];
    expect(width * b).toBe(height * a);
    expect(width * height).toBeGreaterThan(0.95e6);
    expect(width * height).toBeLessThan(1.1e6);
  });
});

describe('the answer', () => {
  it('has exactly created, data (one image) and usage, and an application/json type', async () => {
    const before = Math.floor(Date.now() / 1000);
    const answer = await generate(emu, imageBody({ output_format: 'webp' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Object.keys(answer.json).sort()).toEqual(['created', 'data', 'usage']);
    expect(answer.json.created).toBeGreaterThanOrEqual(before);
    expect(answer.json.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(answer.json.data).toHaveLength(1);
    expect(Object.keys(answer.json.data[0]).sort()).toEqual(['b64_json', 'revised_prompt']);
    expect(answer.json.data[0].b64_json).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  });

  it.each([
    ['a prompt alone', { prompt: 'A lighthouse on a rocky coast at dusk' }],
    ['a prompt and a negative prompt', { prompt: 'Two owls on a branch, moonlit', negative_prompt: 'blurry text, watermark' }],
  ])('counts usage for %s: prompt tokens only, no completion tokens', async (_what, body) => {
    const answer = await generate(emu, { ...body, output_format: 'jpeg' });
    const expected = countTokens(body.prompt) + countTokens((body as { negative_prompt?: string }).negative_prompt ?? '');
    expect(answer.json.usage).toEqual({ prompt_tokens: expected, completion_tokens: 0, total_tokens: expected });
    expect(expected).toBeGreaterThan(5);
  });
});

describe('the pictures', () => {
  it('writes a valid PNG: IHDR, one IDAT, IEND, correct CRCs, a real scene', async () => {
    const png = decodePng(imageBytes(await generate(emu, imageBody({ seed: 3, aspect_ratio: '4:3' }))));
    expect(png.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([png.width, png.height]).toEqual([1152, 864]);
    // A scene has many colours; a blank or striped test card has a handful.
    const colours = new Set<number>();
    for (let i = 0; i < png.rgb.length; i += 3 * 97) colours.add((png.rgb[i]! << 16) | (png.rgb[i + 1]! << 8) | png.rgb[i + 2]!);
    expect(colours.size).toBeGreaterThan(200);
  });

  it('draws the same picture in every format (PNG and JPEG decode to nearly the same pixels)', async () => {
    const body = imageBody({ seed: 11, aspect_ratio: '16:9' });
    const png = decodePng(imageBytes(await generate(emu, { ...body, output_format: 'png' })));
    const decoded = jpeg.decode(imageBytes(await generate(emu, { ...body, output_format: 'jpeg' })), { useTArray: true, formatAsRGBA: false });
    expect([decoded.width, decoded.height]).toEqual([png.width, png.height]);
    expect(meanDifference(png.rgb, decoded.data)).toBeLessThan(3);
  });

  it('draws visibly different pictures for different prompts', async () => {
    const pixels = async (prompt: string) => decodePng(imageBytes(await generate(emu, { prompt, seed: 1 }))).rgb;
    const lighthouse = await pixels('A lighthouse on a rocky coast at dusk');
    const desert = await pixels('A camel crossing the desert at noon');
    const forest = await pixels('A quiet forest under a starry night sky');
    expect(meanDifference(lighthouse, desert)).toBeGreaterThan(20);
    expect(meanDifference(desert, forest)).toBeGreaterThan(20);
    expect(meanDifference(lighthouse, forest)).toBeGreaterThan(20);
  });

  it('sniffs as the format asked for, not the default, for each format', async () => {
    for (const format of FORMATS) {
      expect(sniff(imageBytes(await generate(emu, imageBody({ output_format: format, aspect_ratio: '21:9' }))))).toBe(format);
    }
  });
});
