/**
 * Seeds: the same prompt and seed give identical bytes in every format; another seed or another
 * prompt gives other bytes; no seed gives a new picture each time. Plus the endpoint under
 * concurrent use and clients that hang up.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { chat, chatBody, generate, IMAGES_PATH, imageBody, imageBytes, send } from './helpers/http.js';
import { readHeader } from './helpers/image-files.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

const FORMATS = ['png', 'jpeg', 'webp'] as const;

describe.each(FORMATS)('determinism as %s', (format) => {
  const body = (extra: Record<string, unknown>) => imageBody({ output_format: format, aspect_ratio: '16:9', ...extra });
  // The seed-42 picture is made once and compared with by each test below: the first test shows
  // that making it again gives the same bytes, so the others need not make it again themselves.
  let seed42: ReturnType<typeof generate> | undefined;
  const seeded42 = () => (seed42 ??= generate(emu, body({ seed: 42 })));

  it('gives identical bytes and revised prompt for the same prompt and seed', async () => {
    const first = await seeded42();
    const second = await generate(emu, body({ seed: 42 }));
    expect(imageBytes(second).equals(imageBytes(first))).toBe(true);
    expect(second.json.data[0].revised_prompt).toBe(first.json.data[0].revised_prompt);
  });

  it('gives different bytes for another seed', async () => {
    const a = imageBytes(await seeded42());
    const b = imageBytes(await generate(emu, body({ seed: 43 })));
    expect(b.equals(a)).toBe(false);
    expect(readHeader(b)).toEqual(readHeader(a));
  });

  it('gives different bytes for another prompt with the same seed', async () => {
    const a = imageBytes(await seeded42());
    const b = imageBytes(await generate(emu, body({ seed: 42, prompt: 'A lighthouse on a rocky coast at dawn' })));
    expect(b.equals(a)).toBe(false);
  });

  it('gives a new picture each time when no seed is sent', async () => {
    const a = imageBytes(await generate(emu, body({})));
    const b = imageBytes(await generate(emu, body({})));
    expect(b.equals(a)).toBe(false);
  });
});

describe('determinism across aspect ratios', () => {
  it('keeps the same seeded picture for every request of one ratio, and differs between ratios', async () => {
    const square = imageBytes(await generate(emu, imageBody({ seed: 9, aspect_ratio: '1:1', output_format: 'webp' })));
    const wide = imageBytes(await generate(emu, imageBody({ seed: 9, aspect_ratio: '21:9', output_format: 'webp' })));
    expect(wide.equals(square)).toBe(false);
    expect(imageBytes(await generate(emu, imageBody({ seed: 9, aspect_ratio: '21:9', output_format: 'webp' }))).equals(wide)).toBe(true);
  });

  it('treats seeds as numbers: 7 and 7.0 in the JSON are the same seed', async () => {
    const raw = (seed: string) => JSON.stringify({ prompt: 'A kite over a beach', output_format: 'jpeg' }).replace(/}$/, `,"seed":${seed}}`);
    const a = await send(emu, { path: IMAGES_PATH, body: raw('7') });
    const b = await send(emu, { path: IMAGES_PATH, body: raw('7.0') });
    expect(imageBytes(b).equals(imageBytes(a))).toBe(true);
  });
});

describe('under load', () => {
  it('answers concurrent image requests correctly, one image each, seeded ones identical', async () => {
    const bodies = FORMATS.flatMap((format) => [imageBody({ output_format: format, seed: 5 }), imageBody({ output_format: format, seed: 5 })]);
    const answers = await Promise.all(bodies.map((body) => generate(emu, body)));
    for (const [i, answer] of answers.entries()) {
      expect(readHeader(imageBytes(answer)).format).toBe(bodies[i]!.output_format);
    }
    for (let i = 0; i < answers.length; i += 2) {
      expect(imageBytes(answers[i + 1]!).equals(imageBytes(answers[i]!))).toBe(true);
    }
  });

  it('keeps answering chat while images are being made', async () => {
    const finished: string[] = [];
    const images = [1, 2, 3, 4].map((seed) =>
      generate(emu, imageBody({ seed, output_format: 'webp' })).then((answer) => {
        finished.push(`image ${answer.status}`);
      }));
    // Sent once the first image is done, so three are still queued or being made: it is answered
    // before the last of them, because image work is queued and yields to other requests.
    await Promise.race(images);
    const reply = await chat(emu, chatBody());
    finished.push(`chat ${reply.status}`);
    await Promise.all(images);
    expect(finished).toHaveLength(5);
    expect(finished[0]).toBe('image 200');
    expect(finished.slice(1, 4)).toContain('chat 200');
    expect(finished.filter((entry) => entry === 'image 200')).toHaveLength(4);
  });

  it('carries on after a client hangs up while its image is queued', async () => {
    const busy = generate(emu, imageBody({ output_format: 'webp' }));
    // A request sent whole, then dropped while the webp ahead of it is still being made.
    const cut = await new Promise<Error>((resolve) => {
      const req = request(`${emu.baseUrl}${IMAGES_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.apiKeys[0]}`, 'content-type': 'application/json' },
      });
      req.on('error', resolve);
      req.on('response', () => resolve(new Error('answered before it was dropped')));
      req.on('finish', () => req.destroy(new Error('hung up')));
      req.end(JSON.stringify(imageBody({ output_format: 'jpeg' })));
    });
    expect(cut.message).toBe('hung up');
    expect((await busy).status).toBe(200);
    expect((await generate(emu, imageBody({ output_format: 'png' }))).status).toBe(200);
  });
});
