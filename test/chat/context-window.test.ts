/**
 * The context window (src/chat/context-window.ts): where it comes from (the setting, per model
 * first; llama-server's /props; a model object's field, as each server names it), the estimate
 * of a request (4 characters a token, one for a character of Chinese, Japanese or Korean, an
 * image at a fixed size, the last reply's counts where there are some), and whether it fits.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPart } from '../../src/api/content-parts.js';
import {
  contextWindowFor,
  describeAgainstWindow,
  estimateMessages,
  estimateNextRequest,
  estimateRequest,
  estimateTextTokens,
  fits,
  IMAGE_TOKENS,
  LOW_DETAIL_IMAGE_TOKENS,
  overShare,
  propsUrl,
  replyReserve,
  windowFromModelList,
  windowFromModelObject,
  windowFromProps,
} from '../../src/chat/context-window.js';
import { toMessages } from '../../src/conversations/model.js';

describe('the window of a model', () => {
  const settings = { all: 8192, perModel: { 'svc-mini': 4096 } };

  it.each([
    ['svc-mini', settings, 32_768, { tokens: 4096, source: 'setting' }],
    ['svc-pro', settings, 32_768, { tokens: 8192, source: 'setting' }],
    ['svc-pro', { perModel: { 'svc-mini': 4096 } }, 32_768, { tokens: 32_768, source: 'server' }],
    ['svc-pro', {}, undefined, undefined],
    // Settings that are not a count of tokens are not a window.
    ['svc-pro', { all: 0, perModel: { 'svc-pro': -5 } }, 1.5, undefined],
    // A model named like an Object.prototype member finds nothing there.
    ['constructor', { perModel: {} }, undefined, undefined],
    ['__proto__', { perModel: {}, all: 2048 }, undefined, { tokens: 2048, source: 'setting' }],
  ])('%s with %j, the server saying %j: %j', (model, chosen, server, expected) => {
    expect(contextWindowFor(model, chosen, server)).toEqual(expected);
  });

  it.each([
    ['http://127.0.0.1:8080', undefined, 'http://127.0.0.1:8080/props'],
    ['http://127.0.0.1:8080/v1', undefined, 'http://127.0.0.1:8080/props'],
    ['http://127.0.0.1:8080/v1/', 'tiny', 'http://127.0.0.1:8080/props?model=tiny'],
    ['https://gpu.example/llama/v1', 'org/model q4', 'https://gpu.example/llama/props?model=org%2Fmodel+q4'],
  ])("llama-server's /props for base URL %s (model %s): %s", (base, model, expected) => {
    expect(propsUrl(base, model)).toBe(expected);
  });

  it("llama-server's /props answer: the window of one slot", () => {
    const props = {
      default_generation_settings: { params: { n_predict: -1, temperature: 0.8, top_k: 40 }, n_ctx: 512 },
      total_slots: 1,
      model_alias: 'tiny-llama',
      model_path: '/models/tiny.gguf',
      modalities: { vision: false, audio: false },
      endpoint_slots: true,
      endpoint_props: false,
      endpoint_metrics: false,
      chat_template: '{% for message in messages %}…',
      build_info: 'b6000-c392e509',
    };
    expect(windowFromProps(props)).toBe(512);
    expect(windowFromProps({ n_ctx: 4096, total_slots: 1 })).toBe(4096);
    expect(windowFromProps({ default_generation_settings: { n_ctx: 0 }, n_ctx: 2048 })).toBe(2048);
    expect(windowFromProps({ total_slots: 1 })).toBeUndefined();
    expect(windowFromProps('<html>')).toBeUndefined();
  });

  it.each([
    ['OpenRouter', { id: 'openai/gpt-4o', name: 'OpenAI: GPT-4o', created: 1715367049, context_length: 128000, architecture: { modality: 'text+image->text' }, top_provider: { context_length: 128000, max_completion_tokens: 16384 } }, 128000],
    ['vLLM', { id: 'meta-llama/Llama-3.1-8B-Instruct', object: 'model', created: 1730000000, owned_by: 'vllm', root: 'meta-llama/Llama-3.1-8B-Instruct', parent: null, max_model_len: 8192 }, 8192],
    ['LM Studio, loaded with less than the model takes', { id: 'qwen2-vl-7b-instruct', object: 'model', type: 'vlm', state: 'loaded', max_context_length: 32768, loaded_context_length: 4096 }, 4096],
    ['LM Studio, not loaded', { id: 'qwen2-vl-7b-instruct', object: 'model', type: 'vlm', state: 'not-loaded', max_context_length: 32768 }, 32768],
    ['Groq', { id: 'llama-3.3-70b-versatile', object: 'model', owned_by: 'Meta', active: true, context_window: 32768 }, 32768],
    ['the emulator', { id: 'svc-mini', object: 'model', created: 1, owned_by: 'svc-emulator', context_length: 32768 }, 32768],
    ["llama-server (its n_ctx_train is the model's training, not the server's window)", { id: 'tiny-llama', object: 'model', owned_by: 'llamacpp', meta: { n_vocab: 32000, n_ctx_train: 2048 } }, undefined],
    ['OpenAI (no window given)', { id: 'gpt-4o', object: 'model', created: 1715367049, owned_by: 'system' }, undefined],
  ])('a model object from %s', (_server, model, expected) => {
    expect(windowFromModelObject(model)).toBe(expected);
  });

  it('in a model list, the entry of the model asked about', () => {
    const list = { object: 'list', data: [{ id: 'svc-pro', context_length: 131072 }, { id: 'svc-mini', context_length: 32768 }, 'junk'] };
    expect(windowFromModelList(list, 'svc-mini')).toBe(32768);
    expect(windowFromModelList(list, 'other')).toBeUndefined();
    expect(windowFromModelList({ data: 'none' }, 'svc-pro')).toBeUndefined();
  });
});

describe('the size of a request', () => {
  it.each([
    ['', 0],
    ['abcd', 1],
    ['abcde', 2],
    ['The quick brown fox jumps over the lazy dog.', 11],
    // One a character in the scripts written without spaces, the rest 4 a token.
    ['你好，世界', 5],
    ['こんにちは', 5],
    ['안녕하세요', 5],
    ['hello 世界', 4],
  ])('estimateTextTokens(%j) is %i', (text, tokens) => {
    expect(estimateTextTokens(text)).toBe(tokens);
  });

  it('an image counts at a fixed size whatever its data URL, 85 at low detail', () => {
    const photo = `data:image/jpeg;base64,${'A'.repeat(400_000)}`;
    const parts: ContentPart[] = [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: photo } },
      { type: 'image_url', image_url: { url: photo, detail: 'high' } },
      { type: 'image_url', image_url: { url: 'https://example.com/x.png', detail: 'low' } },
    ];
    expect(estimateMessages([{ content: parts }])).toBe(4 + 4 + IMAGE_TOKENS * 2 + LOW_DETAIL_IMAGE_TOKENS);
    expect(IMAGE_TOKENS).toBe(85 + 8 * 170);
  });

  it('tool calls count their name and arguments; a null content counts nothing', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } };
    expect(estimateMessages([{ content: null, tool_calls: [call] }])).toBe(4 + 3 + 5);
  });

  it("a conversation's messages (toMessages): 3 for the request, 4 and the text for each message", () => {
    const messages = toMessages({
      system: 'Be brief.',
      turns: [{ user: 'What is 2+2?', assistant: 'Four.', at: '2026-01-01T00:00:00Z' }],
    });
    expect(estimateRequest(messages)).toBe(3 + (4 + 3) + (4 + 3) + (4 + 2));
  });

  it("the next request: the service's counts of the last exchange, plus the estimate of what was added", () => {
    const messages = [{ content: 'x'.repeat(4000) }, { content: 'y'.repeat(4000) }, { content: 'next question' }];
    const usage = { prompt_tokens: 950, completion_tokens: 1100, total_tokens: 2050 };
    expect(estimateNextRequest(messages, { usage, added: 1 })).toBe(950 + 1100 + 4 + 4);
    // Without counts (a server that sends no usage, a conversation just loaded): the estimate of it all.
    expect(estimateNextRequest(messages)).toBe(estimateRequest(messages));
    expect(estimateNextRequest(messages, { usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, added: 1 })).toBe(estimateRequest(messages));
    expect(estimateNextRequest(messages, { usage, added: 7 })).toBe(estimateRequest(messages));
  });
});

describe('whether it fits', () => {
  it('room is kept for the reply: max_tokens when set, else an eighth of the window up to 1024', () => {
    expect(replyReserve(512)).toBe(64);
    expect(replyReserve(131_072)).toBe(1024);
    expect(replyReserve(4096, 300)).toBe(300);
    expect(replyReserve(4096, 9000)).toBe(4096);
  });

  it('fits(estimate, window) up to the last token of room', () => {
    expect(fits(448, 512)).toBe(true);
    expect(fits(449, 512)).toBe(false);
    expect(fits(3796, 4096, 300)).toBe(true);
    expect(fits(3797, 4096, 300)).toBe(false);
  });

  it('autoCompact: over a share of the window', () => {
    expect(overShare(800, 1000, 80)).toBe(false);
    expect(overShare(801, 1000, 80)).toBe(true);
  });

  it("/usage's line: the last request against the window, and where the window came from", () => {
    expect(describeAgainstWindow(3120, { tokens: 4096, source: 'setting' })).toBe('3120 of 4096 tokens of the context window (76%)');
    expect(describeAgainstWindow(256, { tokens: 512, source: 'server' })).toBe('256 of 512 tokens of the context window (50%, as the server says)');
  });
});
