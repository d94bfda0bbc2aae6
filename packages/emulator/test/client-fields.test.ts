/**
 * The request fields ordinary OpenAI client code adds that change nothing in the emulator's reply
 * (emulator/chat/client-fields.ts, and the image fields in emulator/images/request.ts): accepted
 * through the official SDK, each checked as OpenAI checks it, and the ones the emulator's own
 * models do not take refused as OpenAI refuses them.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../src/images.js';
import { solid } from './helpers/png-write.js';
import { useSdkEmulator } from './helpers/sdk-emulator.js';

const sdk = useSdkEmulator({ models: ['o4-mini'] });

const messages = [{ role: 'user' as const, content: 'Suggest names for a bakery in Lisbon' }];

/** The 400 the SDK threw for `request`, with OpenAI's error fields. */
async function refusal(request: Promise<unknown>): Promise<{ status: number; param: string | null | undefined; code: string | null | undefined; message: string }> {
  const error = await request.then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const api = error as InstanceType<typeof OpenAI.APIError>;
  return { status: api.status ?? 0, param: api.param, code: api.code, message: api.message };
}

describe('chat: what client code adds is accepted and changes nothing in the reply', () => {
  const extras = {
    store: true,
    metadata: { team: 'bakery', run: '7' },
    service_tier: 'auto' as const,
    modalities: ['text' as const],
    logit_bias: { '50256': -100, '11': 5.5 },
    prediction: { type: 'content' as const, content: 'A bakery called' },
    prompt_cache_key: 'bakery-names',
    safety_identifier: 'user-1234',
  };

  it('the same reply as without them, and service_tier in the answer as OpenAI reports it', async () => {
    const plain = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, seed: 5 });
    const withExtras = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, seed: 5, ...extras });
    expect(withExtras.choices[0]?.message.content).toBe(plain.choices[0]?.message.content);
    expect(plain.service_tier).toBe('default');
    expect(withExtras.service_tier).toBe('default'); // `auto` is answered on the default tier
    const flex = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, service_tier: 'flex' });
    expect(flex.service_tier).toBe('flex');
  });

  it('streamed, every chunk names the tier, and finalChatCompletion() keeps it', async () => {
    const stream = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, stream: true, ...extras });
    const tiers = new Set<unknown>();
    let text = '';
    for await (const chunk of stream) {
      tiers.add(chunk.service_tier);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect([...tiers]).toEqual(['default']);
    expect(text.length).toBeGreaterThan(0);
  });

  it.each([
    ['metadata', { metadata: { team: 7 } }, 'metadata.team', 'invalid_type'],
    ['metadata', { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata', 'invalid_value'],
    ['service_tier', { service_tier: 'cheapest' }, 'service_tier', 'invalid_value'],
    ['logit_bias', { logit_bias: { '50256': -101 } }, 'logit_bias', 'invalid_value'],
    ['logit_bias', { logit_bias: { hello: 1 } }, 'logit_bias', 'invalid_value'],
    ['prediction', { prediction: { type: 'content', content: 7 } }, 'prediction.content', 'invalid_type'],
    ['store', { store: 'yes' }, 'store', 'invalid_type'],
    ['modalities', { modalities: ['text', 'audio'] }, 'modalities', 'unsupported_value'],
    ['audio', { audio: { voice: 'alloy', format: 'mp3' } }, 'audio', 'unsupported_parameter'],
    ['functions', { functions: [{ name: 'f', parameters: {} }] }, 'functions', 'unsupported_parameter'],
  ])('%s is checked: %j is a 400 naming %s', async (_field, fields, param, code) => {
    const request = sdk.client.chat.completions.create({ model: 'svc-pro', messages, ...fields } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(await refusal(request)).toMatchObject({ status: 400, param, code });
  });

  it('a misspelt field is still refused', async () => {
    const request = sdk.client.chat.completions.create({ model: 'svc-pro', messages, stroe: true } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(await refusal(request)).toMatchObject({ status: 400, param: 'stroe', code: 'unknown_parameter' });
  });
});

describe('chat: fields only some models take', () => {
  it("the emulator's own models refuse reasoning_effort, verbosity and web_search_options as OpenAI's other models do", async () => {
    for (const fields of [{ reasoning_effort: 'low' }, { verbosity: 'high' }, { web_search_options: {} }]) {
      const request = sdk.client.chat.completions.create({ model: 'svc-pro', messages, ...fields } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const [param] = Object.keys(fields);
      expect(await refusal(request)).toEqual({ status: 400, param, code: 'unsupported_parameter', message: `400 Unsupported parameter: '${param}' is not supported with this model.` });
    }
  });

  it('a model named with --model takes them (it stands for whatever the client asks for), still checked', async () => {
    const answer = await sdk.client.chat.completions.create({ model: 'o4-mini', messages, reasoning_effort: 'high', verbosity: 'low' });
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
    const bad = sdk.client.chat.completions.create({ model: 'o4-mini', messages, reasoning_effort: 'extreme' } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(await refusal(bad)).toMatchObject({ status: 400, param: 'reasoning_effort', code: 'invalid_value' });
  });
});

describe('image parts', () => {
  const withImage = (url: string) =>
    sdk.client.chat.completions.create({ model: 'svc-pro', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url } }] }] });
  const pixel = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

  it('an https URL or a base64 data URL of an image is taken', async () => {
    const link = (await withImage('https://example.com/cat.png')).choices[0]?.message.content;
    expect(link).toMatch(/^The image you sent, at https:\/\/example\.com\/cat\.png, was not fetched: /);
    const white = await encodePng(solid(1, 1, [255, 255, 255]), 1, 1);
    const data = (await withImage(`data:image/png;base64,${white.toString('base64')}`)).choices[0]?.message.content;
    expect(data).toMatch(/^The image you sent is a 1×1 PNG image, entirely white\.\n\n/);
  });

  it('a data URL that is not base64 of an image, or a file path, is a 400 naming the part', async () => {
    for (const url of ['data:image/png;base64,notbase64!!', 'data:image/png,rawbytes', `data:text/plain;base64,${pixel}`]) {
      expect(await refusal(withImage(url))).toMatchObject({ status: 400, param: 'messages[0].content[1].image_url.url', code: 'invalid_image_format' });
    }
    expect(await refusal(withImage('/home/me/cat.png'))).toMatchObject({ status: 400, param: 'messages[0].content[1].image_url.url', code: 'invalid_image_url' });
  });
});

describe("response_format json_object needs the word 'json' in the messages, as OpenAI's does", () => {
  it('refused without it, answered with it in any case and in any message', async () => {
    const without = sdk.client.chat.completions.create({ model: 'svc-pro', messages, response_format: { type: 'json_object' } });
    expect(await refusal(without)).toMatchObject({ status: 400, param: 'messages', message: expect.stringContaining("must contain the word 'json'") as unknown as string });
    const withWord = await sdk.client.chat.completions.create({
      model: 'svc-pro',
      messages: [{ role: 'system', content: 'Answer in Json.' }, ...messages],
      response_format: { type: 'json_object' },
    });
    expect(typeof JSON.parse(withWord.choices[0]?.message.content ?? '')).toBe('object');
  });
});

describe('images: what client code adds', () => {
  const jpeg = (fields: Record<string, unknown>) =>
    sdk.client.images.generate({ model: 'svc-vision', prompt: 'a lighthouse at dusk', output_format: 'jpeg', ...fields, seed: 3 } as OpenAI.ImageGenerateParamsNonStreaming);

  it('output_compression is the JPEG quality: the same picture, fewer bytes at a lower one', async () => {
    const sizeAt = async (fields: Record<string, unknown>) => Buffer.from((await jpeg(fields)).data?.[0]?.b64_json ?? '', 'base64');
    const low = await sizeAt({ output_compression: 20 });
    const high = await sizeAt({ output_compression: 95 });
    expect(low.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(low.length).toBeLessThan(high.length * 0.8);
    expect((await sizeAt({})).equals(await sizeAt({}))).toBe(true);
  });

  it('background and moderation are accepted; wrong values, and streaming, are 400s naming them', async () => {
    const accepted = await jpeg({ background: 'opaque', moderation: 'low' });
    expect(accepted.data).toHaveLength(1);
    expect(await refusal(jpeg({ output_compression: 101 }))).toMatchObject({ status: 400, param: 'output_compression', code: 'invalid_value' });
    expect(await refusal(jpeg({ background: 'glass' }))).toMatchObject({ status: 400, param: 'background', code: 'invalid_value' });
    expect(await refusal(jpeg({ stream: true, partial_images: 2 }))).toMatchObject({ status: 400, param: 'stream', code: 'unsupported_value' });
  });
});
