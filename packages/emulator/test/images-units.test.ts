/**
 * The image endpoint's parts on their own: the size table, the model list, CRC-32, the PNG
 * writer, the serial queue and the request parser's defaults.
 */
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePng, PNG_SIGNATURE } from '../src/core/images/png.js';
import { parseImageRequest } from '../src/extras/openai/image-request.js';
import { createSerialQueue } from '../src/core/images/serial.js';
import { ASPECT_RATIOS, IMAGE_SIZES, OUTPUT_FORMATS } from '../src/core/images/sizes.js';
import { CHAT_MODELS, DEFAULT_IMAGE_MODEL, IMAGE_MODELS, isChatModel, isImageModel } from '../src/core/models.js';
import { decodePng } from './helpers/image-files.js';

describe('IMAGE_SIZES', () => {
  it('is exactly the table the README quotes', () => {
    expect(IMAGE_SIZES).toEqual({
      '1:1': { width: 1024, height: 1024 },
      '16:9': { width: 1344, height: 756 },
      '9:16': { width: 756, height: 1344 },
      '4:3': { width: 1152, height: 864 },
      '3:4': { width: 864, height: 1152 },
      '21:9': { width: 1512, height: 648 },
    });
    expect(Object.keys(IMAGE_SIZES)).toEqual([...ASPECT_RATIOS]);
    expect(Object.isFrozen(IMAGE_SIZES)).toBe(true);
  });

  it.each(ASPECT_RATIOS)('%s: exactly the ratio, about one megapixel', (ratio) => {
    const { width, height } = IMAGE_SIZES[ratio];
    const [a, b] = ratio.split(':').map(Number) as [number, number];
    expect(width * b).toBe(height * a);
    expect(width * height / 1e6).toBeGreaterThanOrEqual(0.97);
    expect(width * height / 1e6).toBeLessThanOrEqual(1.05);
  });

  it('lists the options in the order of the spec, defaults first', () => {
    expect(ASPECT_RATIOS).toEqual(['1:1', '16:9', '9:16', '4:3', '3:4', '21:9']);
    expect(OUTPUT_FORMATS).toEqual(['png', 'jpeg', 'webp']);
  });
});

describe('image models', () => {
  it('serves svc-vision by default and keeps chat and image ids apart', () => {
    expect(IMAGE_MODELS).toEqual(['svc-vision']);
    expect(DEFAULT_IMAGE_MODEL).toBe('svc-vision');
    expect(isImageModel('svc-vision')).toBe(true);
    for (const chat of CHAT_MODELS) expect(isImageModel(chat)).toBe(false);
    expect(isChatModel('svc-vision')).toBe(false);
    expect(isImageModel('svc-vision ')).toBe(false);
  });
});

describe('parseImageRequest', () => {
  it('fills in the defaults of the image fields (docs/service-api.md, "Images")', () => {
    expect(parseImageRequest({ prompt: ' a boat ' })).toEqual({
      prompt: ' a boat ', model: 'svc-vision', aspectRatio: '1:1', outputFormat: 'png', seed: undefined, negativePrompt: undefined, n: 1, responseFormat: 'b64_json',
    });
  });

  it('keeps every given value', () => {
    expect(parseImageRequest({ prompt: 'p', model: 'm', aspect_ratio: '3:4', output_format: 'webp', seed: -3, negative_prompt: 'fog' })).toEqual({
      prompt: 'p', model: 'm', aspectRatio: '3:4', outputFormat: 'webp', seed: -3, negativePrompt: 'fog', n: 1, responseFormat: 'b64_json',
    });
  });

  it("takes OpenAI's fields: n, size as the nearest aspect ratio (aspect_ratio wins), response_format, quality, style", () => {
    expect(parseImageRequest({ prompt: 'p', n: 3, size: '1792x1024', response_format: 'url', quality: 'hd', style: 'natural' })).toMatchObject({ n: 3, aspectRatio: '16:9', responseFormat: 'url' });
    expect(parseImageRequest({ prompt: 'p', size: '1024x1536' }).aspectRatio).toBe('3:4');
    expect(parseImageRequest({ prompt: 'p', size: '1024x1024', aspect_ratio: '21:9' }).aspectRatio).toBe('21:9');
    expect(parseImageRequest({ prompt: 'p', size: 'auto' }).aspectRatio).toBe('1:1');
  });
});

describe('encodePng', () => {
  it('writes a file that decodes to exactly the RGB of the pixels (alpha dropped)', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 7 }), fc.integer(), async (width, height, seed) => {
      const rgba = new Uint8ClampedArray(width * height * 4).map((_, i) => (Math.imul(seed ^ i, 2654435761) >>> 24) & 0xff);
      const file = await encodePng(rgba, width, height);
      expect(file.subarray(0, 8)).toEqual(Buffer.from(PNG_SIGNATURE));
      const png = decodePng(file);
      expect([png.width, png.height]).toEqual([width, height]);
      const rgb = new Uint8Array(width * height * 3);
      for (let p = 0; p < width * height; p += 1) rgb.set(rgba.subarray(p * 4, p * 4 + 3), p * 3);
      expect(png.rgb).toEqual(rgb);
    }), { numRuns: 40 });
  });

  it('uses filter type 1 (Sub) on every row', async () => {
    const file = await encodePng(new Uint8ClampedArray(3 * 2 * 4).fill(200), 3, 2);
    const raw = inflateSync(file.subarray(8 + 25 + 8, file.length - 12 - 4));
    expect([raw[0], raw[10]]).toEqual([1, 1]);
    // Sub turns a flat row into its first pixel followed by zeros.
    expect([...raw.subarray(1, 10)]).toEqual([200, 200, 200, 0, 0, 0, 0, 0, 0]);
  });
});

describe('createSerialQueue', () => {
  it('runs one job at a time, in order, and a failure does not stop the rest', async () => {
    const queue = createSerialQueue();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const job = (n: number, fail = false) => async () => {
      running += 1;
      most = Math.max(most, running);
      // Give the event loop a turn: a queue that did not serialise would start the next job here.
      await new Promise((resolve) => setImmediate(resolve));
      order.push(n);
      running -= 1;
      if (fail) throw new Error(`job ${n} failed`);
      return n;
    };
    const results = await Promise.allSettled([queue.run(job(1)), queue.run(job(2, true)), queue.run(job(3))]);
    expect(most).toBe(1);
    expect(order).toEqual([1, 2, 3]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[2]).toEqual({ status: 'fulfilled', value: 3 });
  });
});
