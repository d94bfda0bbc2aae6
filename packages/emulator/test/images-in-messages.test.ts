/**
 * Images in a chat message, over HTTP and through the official SDK: content parts (`text`,
 * `image_url`) taken, each image described by its size and main colours, a link said to be not
 * fetched, an unreadable image refused in OpenAI's words, `detail` checked, images counted in
 * `usage`; and, started text-only, content parts refused as a text-only server refuses them.
 */
import OpenAI from 'openai';
import { GifWriter } from 'omggif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { countTokens } from '../src/core/tokenizer.js';
import { encodeJpeg, encodePng, encodeWebp } from '../src/images.js';
import { chat, errorShape, generate, imageBody, imageBytes, sseData } from './helpers/http.js';
import { dataUrl, solid } from './helpers/png-write.js';
import { useSdkEmulator } from './helpers/sdk-emulator.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

const NAVY = [0, 0, 128] as const;

/** RGBA pixels, the top `share` of the rows in `top`, the rest in `bottom`. */
function bands(width: number, height: number, top: readonly [number, number, number], bottom: readonly [number, number, number], share: number): Uint8ClampedArray {
  const data = solid(width, height, bottom);
  const rows = Math.round(height * share);
  for (let p = 0; p < width * rows; p += 1) data.set([...top, 255], p * 4);
  return data;
}

const png = (width: number, height: number, data: Uint8ClampedArray) => encodePng(data, width, height);

function gif(width: number, height: number, frames: number): Buffer {
  const buffer = Buffer.alloc(8192 + width * height * frames);
  const writer = new GifWriter(buffer, width, height, { palette: [0x00a000, 0xffffff] });
  for (let frame = 0; frame < frames; frame += 1) writer.addFrame(0, 0, width, height, Array.from({ length: width * height }, () => 0), { delay: 10 });
  return buffer.subarray(0, writer.end());
}

const text = (value: string) => ({ type: 'text', text: value });
const image = (url: string, detail?: string) => ({ type: 'image_url', image_url: { url, ...(detail === undefined ? {} : { detail }) } });
const ask = (...parts: object[]) => ({ messages: [{ role: 'user', content: parts }], temperature: 0 });

/** The reply's first paragraph: what the images show. */
async function seen(body: object): Promise<string> {
  const answer = await chat(emu, body);
  expect(answer.status, answer.text).toBe(200);
  return (answer.json.choices[0].message.content as string).split('\n\n')[0]!;
}

describe('an image in a message is described: its size and its main colours', () => {
  it('a PNG, mostly dark blue and white', async () => {
    const file = await png(640, 480, bands(640, 480, NAVY, [255, 255, 255], 0.7));
    expect(await seen(ask(text('What is in this picture?'), image(dataUrl(file))))).toBe('The image you sent is a 640×480 PNG image, mostly dark blue and white.');
  });

  it.each([
    ['JPEG', async () => encodeJpeg(solid(320, 200, [220, 20, 30]), 320, 200), 'image/jpeg', 'a 320×200 JPEG image, entirely red'],
    ['WebP', async () => encodeWebp(solid(320, 200, [250, 210, 0]), 320, 200), 'image/webp', 'a 320×200 WebP image, entirely yellow'],
    ['GIF', async () => gif(64, 48, 1), 'image/gif', 'a 64×48 GIF image, entirely green'],
    ['animated GIF', async () => gif(64, 48, 5), 'image/gif', 'a 64×48 GIF image (animated, 5 frames), entirely green'],
  ])('a %s', async (_format, make, type, description) => {
    expect(await seen(ask(text('Describe it'), image(dataUrl(await make(), type))))).toBe(`The image you sent is ${description}.`);
  });

  it('the bytes tell the format, not the type the data URL declares', async () => {
    const jpeg = await encodeJpeg(solid(100, 100, [255, 255, 255]), 100, 100);
    expect(await seen(ask(text('What is this?'), image(dataUrl(jpeg, 'image/png'))))).toBe('The image you sent is a 100×100 JPEG image, entirely white.');
  });

  it('several images, each in turn; a link is said to be not fetched (the emulator works offline)', async () => {
    const first = await png(10, 10, solid(10, 10, [0, 0, 0]));
    const reply = await seen(ask(text('Compare these'), image(dataUrl(first)), image('https://example.com/cat.png', 'low')));
    expect(reply).toBe('Image 1 is a 10×10 PNG image, entirely black. Image 2, at https://example.com/cat.png, was not fetched: the emulator works offline, so it cannot say what it shows.');
  });

  it('with no words, the reply is the description alone; with words, a reply to them follows', async () => {
    const file = await png(8, 8, solid(8, 8, [0, 0, 255]));
    const alone = await chat(emu, ask(image(dataUrl(file))));
    expect(alone.json.choices[0].message.content).toBe('The image you sent is a 8×8 PNG image, entirely blue.');
    const withWords = await chat(emu, ask(text('Is this the sea at dusk?'), image(dataUrl(file))));
    const [description, reply] = (withWords.json.choices[0].message.content as string).split('\n\n');
    expect(description).toBe('The image you sent is a 8×8 PNG image, entirely blue.');
    expect(reply).toMatch(/\bsea\b/i);
  });

  it("svc's own images, from the image endpoint, in each format and ratio", async () => {
    const seenAs: string[] = [];
    for (const [format, ratio] of [['png', '16:9'], ['jpeg', '1:1'], ['webp', '3:4']] as const) {
      const made = imageBytes(await generate(emu, imageBody({ prompt: 'a lighthouse by the sea at night', output_format: format, aspect_ratio: ratio, seed: 4 })));
      seenAs.push(await seen(ask(text('What did you draw?'), image(dataUrl(made, `image/${format}`)))));
    }
    // The same night scene in each: dark, whatever the format and the frame.
    expect(seenAs).toEqual([
      'The image you sent is a 1344×756 PNG image, a mix of black, dark grey and dark blue.',
      'The image you sent is a 1024×1024 JPEG image, a mix of black, dark grey and dark blue.',
      'The image you sent is a 864×1152 WebP image, a mix of black, dark grey and dark blue.',
    ]);
  });

  it('only the last message is described; earlier images still count in usage', async () => {
    const file = await png(8, 8, solid(8, 8, [255, 0, 0]));
    const body = {
      temperature: 0,
      messages: [
        { role: 'user', content: [text('What colour?'), image(dataUrl(file), 'low')] },
        { role: 'assistant', content: 'It is red.' },
        { role: 'user', content: 'Why is that?' },
      ],
    };
    const answer = await chat(emu, body);
    expect(answer.json.choices[0].message.content).not.toContain('The image you sent');
    const words = ['What colour?', 'It is red.', 'Why is that?'];
    expect(answer.json.usage.prompt_tokens).toBe(3 + words.reduce((sum, each) => sum + 4 + countTokens(each), 0) + 85);
  });
});

describe('images count in usage as OpenAI counts them', () => {
  const words = 'What is this?';
  const base = 3 + 4 + countTokens(words);

  it.each([
    ['low', 85],
    ['high', 765],
    ['auto', 765],
  ])('a 1024×1024 image at detail %s: %i tokens', async (detail, tokens) => {
    const file = await png(1024, 1024, solid(1024, 1024, [10, 10, 10]));
    const body = ask(text(words), image(dataUrl(file), detail));
    const whole = await chat(emu, body);
    expect(whole.json.usage.prompt_tokens).toBe(base + tokens);
    const streamed = await chat(emu, { ...body, stream: true, stream_options: { include_usage: true } });
    const last = sseData(streamed.text).at(-2) as { usage: { prompt_tokens: number } };
    expect(last.usage.prompt_tokens).toBe(base + tokens);
  });
});

describe('what is refused', () => {
  const UNSUPPORTED = "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

  it("an image that cannot be read, or is over 20 MB: OpenAI's 400, which names no part", async () => {
    const good = await png(20, 20, solid(20, 20, [1, 2, 3]));
    const oversized = Buffer.concat([good, Buffer.alloc(20 * 1024 * 1024)]);
    const bad = [good.subarray(0, 40), Buffer.concat([Buffer.from('BM'), Buffer.alloc(100)]), Buffer.from('plain text, base64-encoded'), oversized];
    for (const bytes of bad) {
      const answer = await chat(emu, ask(text('What is this?'), image(dataUrl(bytes))));
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: { message: UNSUPPORTED, type: 'invalid_request_error', code: 'invalid_image_format', param: null } });
    }
  });

  it('a detail other than low, high or auto, or an unknown field of image_url, naming it', async () => {
    const url = dataUrl(await png(4, 4, solid(4, 4, [0, 0, 0])));
    const detail = await chat(emu, ask(text('x'), image(url, 'medium')));
    expect(detail.status).toBe(400);
    expect(detail.json).toEqual(errorShape({ code: 'invalid_value', param: 'messages[0].content[1].image_url.detail', message: 'messages[0].content[1].image_url.detail must be one of low, high, auto; got "medium"' }));
    const extra = await chat(emu, ask(text('x'), { type: 'image_url', image_url: { url, size: 'big' } }));
    expect(extra.json).toEqual(errorShape({ code: 'unknown_parameter', param: 'messages[0].content[1].image_url.size', message: 'Unrecognized request argument supplied: messages[0].content[1].image_url.size' }));
  });

  it('an image in a message that is not the user’s', async () => {
    const answer = await chat(emu, { messages: [{ role: 'system', content: [image('https://example.com/a.png')] }, { role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ param: 'messages[0].content[0].type', code: 'invalid_value' });
  });
});

describe('started text-only (svc emulator --text-only), as the service itself and text-only servers are', () => {
  let textOnly: RunningEmulator;
  beforeAll(async () => {
    textOnly = await startEmulator({ textOnly: true });
  });
  afterAll(() => textOnly.close());

  it('refuses content parts, images or not, with a 400 naming content and image_url; a string is answered', async () => {
    for (const content of [[text('What is this?'), image('https://example.com/cat.png')], [text('only words, as parts')]]) {
      const answer = await chat(textOnly, { messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi' }, { role: 'user', content }] });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(errorShape({
        code: 'invalid_type',
        param: 'messages[2].content',
        message: "Invalid type for 'messages[2].content': expected a string, but got an array instead. This server takes text only: content parts (text, image_url) are not supported.",
      }));
    }
    expect((await chat(textOnly, { messages: [{ role: 'user', content: 'What is this?' }] })).status).toBe(200);
  });
});

describe('the official SDK', () => {
  const sdk = useSdkEmulator();

  it('sends content parts and reads the description, whole and streamed', async () => {
    const file = await png(300, 200, bands(300, 200, [255, 255, 255], NAVY, 0.25));
    const params = {
      model: 'svc-pro',
      temperature: 0,
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is in this image?' }, { type: 'image_url' as const, image_url: { url: dataUrl(file), detail: 'high' as const } }] }],
    };
    const whole = await sdk.client.chat.completions.create(params);
    expect(whole.choices[0]!.message.content).toMatch(/^The image you sent is a 300×200 PNG image, mostly dark blue and white\.\n\n/);
    expect(whole.usage?.prompt_tokens).toBe(3 + 4 + countTokens('What is in this image?') + 255);
    const streamed = await sdk.client.chat.completions.stream(params).finalChatCompletion();
    expect(streamed.choices[0]!.message.content).toBe(whole.choices[0]!.message.content);
  });

  it('gets the unreadable image refusal as a BadRequestError', async () => {
    const error = await sdk.client.chat.completions
      .create({ model: 'svc-pro', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] })
      .then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_image_format', param: null });
  });
});
