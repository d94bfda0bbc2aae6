/**
 * The context window: each chat model's `context_length` in the model list; started with a window
 * (`svc emulator --context N`, `contextLength`), a request that does not fit is refused as OpenAI
 * refuses it, counted as `usage` counts it, and a reply stops where the window ends; without one,
 * nothing is ever refused for length.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { countTokens } from '../src/core/tokenizer.js';
import { chat, errorShape, send } from './helpers/http.js';

const WINDOW = 300;
let open: RunningEmulator;
let small: RunningEmulator;
beforeAll(async () => {
  open = await startEmulator({ models: ['llama-3-8b'] });
  small = await startEmulator({ contextLength: WINDOW, models: ['llama-3-8b'] });
});
afterAll(async () => {
  await open.close();
  await small.close();
});

/** A user message of `words` words: 1 token each, plus the framing (3 + 4). */
const long = (words: number) => ({ messages: [{ role: 'user', content: Array.from({ length: words }, () => 'word').join(' ') }], temperature: 0 });

describe('model objects carry context_length', () => {
  it('each chat model its own; the image model none', async () => {
    const list = (await send(open, { path: '/v1/models', method: 'GET' })).json;
    expect(list.data).toEqual([
      { id: 'svc-pro', object: 'model', created: expect.any(Number), owned_by: 'svc-emulator', context_length: 131_072 },
      { id: 'svc-mini', object: 'model', created: expect.any(Number), owned_by: 'svc-emulator', context_length: 32_768 },
      { id: 'svc-vision', object: 'model', created: expect.any(Number), owned_by: 'svc-emulator' },
      { id: 'llama-3-8b', object: 'model', created: expect.any(Number), owned_by: 'svc-emulator', context_length: 131_072 },
    ]);
  });

  it('started with a window, every chat model has it, one by one too', async () => {
    const list = (await send(small, { path: '/v1/models', method: 'GET' })).json as { data: Array<{ id: string; context_length?: number }> };
    expect(list.data.map((model) => [model.id, model.context_length])).toEqual([['svc-pro', WINDOW], ['svc-mini', WINDOW], ['svc-vision', undefined], ['llama-3-8b', WINDOW]]);
    expect((await send(small, { path: '/v1/models/svc-mini', method: 'GET' })).json.context_length).toBe(WINDOW);
  });
});

describe('a request that does not fit the window', () => {
  it("is refused with OpenAI's 400: context_length_exceeded, the window and the request's tokens, counted as usage counts them", async () => {
    const body = long(400);
    const counted = (await chat(open, body)).json.usage.prompt_tokens;
    expect(counted).toBe(3 + 4 + 400);
    const answer = await chat(small, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({
      code: 'context_length_exceeded',
      param: 'messages',
      message: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${counted} tokens. Please reduce the length of the messages.`,
    }));
  });

  it('with max_tokens, the prompt and the completion asked for; with tools, what they add', async () => {
    const withMax = await chat(small, { ...long(200), max_tokens: 100 });
    expect(withMax.json.error.message).toBe(`This model's maximum context length is ${WINDOW} tokens. However, you requested 307 tokens (207 in the messages, 100 in the completion). Please reduce the length of the messages or completion.`);
    const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { term: { type: 'string' } } } } };
    const functions = countTokens(JSON.stringify(tool.function));
    const withTools = await chat(small, { ...long(290), tools: [tool] });
    expect(withTools.json.error).toMatchObject({
      code: 'context_length_exceeded',
      message: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${297 + functions} tokens (297 in the messages, ${functions} in the functions). Please reduce the length of the messages or functions.`,
    });
  });

  it('streamed, the refusal is the same JSON 400, before any event', async () => {
    const answer = await chat(small, { ...long(400), stream: true });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json.error.code).toBe('context_length_exceeded');
  });

  it('the SDK raises a BadRequestError with the code', async () => {
    const client = new OpenAI({ baseURL: `${small.baseUrl}/v1`, apiKey: small.apiKeys[0], maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'svc-pro', ...long(400) } as OpenAI.ChatCompletionCreateParamsNonStreaming).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'messages' });
  });
});

describe('a request that fits', () => {
  it('is answered; its reply stops where the window ends (finish_reason length)', async () => {
    const roomy = await chat(small, long(10));
    expect(roomy.status).toBe(200);
    expect(roomy.json.choices[0].finish_reason).toBe('stop');
    // 290 words leave 3 tokens of the 300 for the reply.
    const tight = await chat(small, long(290));
    expect(tight.status).toBe(200);
    expect(tight.json.choices[0].finish_reason).toBe('length');
    expect(tight.json.usage).toMatchObject({ prompt_tokens: 297, completion_tokens: 3, total_tokens: WINDOW });
    // The prompt alone filling the window leaves no room: refused.
    expect((await chat(small, long(293))).status).toBe(400);
  });
});

describe('without a window', () => {
  it('never refuses for length, even past the model list’s context_length', async () => {
    const answer = await chat(open, { ...long(140_000), model: 'svc-pro' });
    expect(answer.status).toBe(200);
    expect(answer.json.usage.prompt_tokens).toBe(140_007);
  });

  it('a window that is not a whole number of at least 1 is refused at start', async () => {
    await expect(startEmulator({ contextLength: 0 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ contextLength: 1.5 })).rejects.toThrow('contextLength must be an integer of at least 1; got 1.5');
  });
});
