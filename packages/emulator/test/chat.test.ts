import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_BLACKLIST } from '../src/core/blacklist.js';
import { CHAT_MODELS } from '../src/core/models.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { countPromptTokens, countTokens } from '../src/core/tokenizer.js';
import { chat, chatBody, errorShape } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ blockTerms: ['purple elephant', '   '] });
});
afterAll(() => emu.close());

const ask = (content: string, extra: Record<string, unknown> = {}) =>
  chat(emu, { messages: [{ role: 'user', content }], ...extra });
const contentOf = async (body: Record<string, unknown>): Promise<string> => (await chat(emu, body)).json.choices[0].message.content;

describe('a completion', () => {
  it('has the shape of a whole answer (docs/service-api.md) with consistent usage', async () => {
    const messages = [{ role: 'system', content: 'Be helpful.' }, { role: 'user', content: 'How do I bake sourdough bread?' }];
    const before = Date.now();
    const answer = await chat(emu, { messages });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const body = answer.json;
    expect(body).toEqual({
      id: expect.stringMatching(/^chatcmpl-\w+$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'svc-pro',
      // Every field OpenAI's completion has (issue 23, item 2), for clients written against it.
      service_tier: 'default',
      system_fingerprint: 'fp_svc_emulator',
      choices: [{ index: 0, message: { role: 'assistant', content: expect.any(String), refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: countPromptTokens(messages),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
    expect(Number.isInteger(body.created)).toBe(true);
    // Unix seconds of the answer (see the image SDK test for an exact check on a fixed clock).
    expect(body.created).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(body.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const content: string = body.choices[0].message.content;
    expect(body.usage.completion_tokens).toBe(countTokens(content));
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.usage.completion_tokens).toBeGreaterThanOrEqual(40);
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(120);
  });

  it('counts more prompt tokens for a longer conversation', async () => {
    const short = (await ask('hi')).json.usage.prompt_tokens;
    const long = (await ask('hi there, how are you doing on this fine morning?')).json.usage.prompt_tokens;
    expect(long).toBeGreaterThan(short);
  });

  it('writes readable English about the key words of the last user message', async () => {
    const content = await contentOf({ messages: [{ role: 'user', content: 'What should I know about photosynthesis in plants?' }] });
    expect(content).toMatch(/photosynthesis/);
    expect(content).toMatch(/^[A-Z]/);
    expect(content.trim().endsWith('.')).toBe(true);
    expect(content).not.toMatch(/lorem|ipsum/i);
  });

  it('refers back to an earlier turn of the conversation', async () => {
    const messages = [
      { role: 'user', content: 'Tell me about volcanoes.' },
      { role: 'assistant', content: 'Volcanoes are openings in the crust of a planet.' },
      { role: 'user', content: 'And what about earthquakes?' },
    ];
    const content = await contentOf({ messages, temperature: 0 });
    expect(content).toMatch(/earthquakes/);
    expect(content).toMatch(/volcanoes|crust|planet|openings/i);
  });
});

describe('models', () => {
  it('exports the chat models', () => {
    expect(CHAT_MODELS).toEqual(['svc-pro', 'svc-mini']);
  });

  it.each(CHAT_MODELS)('serves %s and names it in the reply', async (model) => {
    const answer = await chat(emu, chatBody({ model }));
    expect(answer.status).toBe(200);
    expect(answer.json.model).toBe(model);
  });

  it('defaults to svc-pro', async () => {
    expect((await chat(emu, chatBody())).json.model).toBe('svc-pro');
  });

  it.each([['gpt-4o'], ['svc-vision'], ['SVC-PRO'], ['']])('refuses the model %j with 404 model_not_found', async (model) => {
    const answer = await chat(emu, chatBody({ model }));
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual(errorShape({ code: 'model_not_found', param: 'model' }));
    expect(answer.json.error.message).toBe(`The model '${model}' does not exist or you do not have access to it.`);
  });
});

describe('blacklist', () => {
  const refused = errorShape({ message: 'Request contains disallowed content', code: 'content_policy_violation' });

  it.each(BUILTIN_BLACKLIST.map((term) => [term]))('refuses the built-in term %j', async (term) => {
    const answer = await ask(`Please explain ${term} to me.`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(refused);
  });

  it('matches regardless of case and spacing, in any message of the conversation', async () => {
    const messages = [
      { role: 'system', content: 'You are an expert on COUNTERFEIT\n  Banknotes.' },
      { role: 'user', content: 'hello' },
    ];
    expect((await chat(emu, { messages })).json).toEqual(refused);
    const inAssistant = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'A Ransomware Payload is...' }, { role: 'user', content: 'go on' }];
    expect((await chat(emu, { messages: inAssistant })).status).toBe(400);
  });

  it('refuses the extra blockTerms too, and ignores blank ones', async () => {
    const answer = await ask('Draw me a Purple Elephant please');
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(refused);
    expect((await ask('A perfectly ordinary question about elephants?')).status).toBe(200);
  });

  it('does not refuse harmless text', async () => {
    expect((await ask('How do pipes and bombastic speeches relate?')).status).toBe(200);
  });
});

describe('determinism', () => {
  const conversation = { messages: [{ role: 'user', content: 'Explain how tides work on the ocean.' }] };

  it('gives the identical reply to the identical request at temperature 0', async () => {
    const body = { ...conversation, temperature: 0, top_p: 0.5, user: 'u1' };
    const [a, b, c] = await Promise.all([contentOf(body), contentOf(body), contentOf(body)]);
    expect(a).toBe(b);
    expect(b).toBe(c);
  });

  it('varies between calls at temperature above 0, the default', async () => {
    const replies = await Promise.all([contentOf(conversation), contentOf(conversation), contentOf(conversation)]);
    expect(new Set(replies).size).toBeGreaterThan(1);
    const hot = await Promise.all([contentOf({ ...conversation, temperature: 0.7 }), contentOf({ ...conversation, temperature: 0.7 }), contentOf({ ...conversation, temperature: 0.7 })]);
    expect(new Set(hot).size).toBeGreaterThan(1);
  });

  it('gives different replies to different conversations', async () => {
    const prompts = ['hi', 'hello', 'Explain how tides work.', 'Explain how tides work!', 'What is the capital of France?', 'Write a poem about autumn leaves'];
    const replies = await Promise.all(prompts.map((content) => contentOf({ messages: [{ role: 'user', content }], temperature: 0 })));
    expect(new Set(replies).size).toBe(prompts.length);
    const withSystem = await contentOf({ messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'hi' }], temperature: 0 });
    expect(withSystem).not.toBe(replies[0]);
    const otherModel = await contentOf({ messages: [{ role: 'user', content: 'hi' }], temperature: 0, model: 'svc-mini' });
    expect(otherModel).not.toBe(replies[0]);
  });
});

describe('max_tokens and stop', () => {
  const base = { messages: [{ role: 'user', content: 'How do rockets reach orbit?' }], temperature: 0 };

  it('cuts the reply after max_tokens with finish_reason length', async () => {
    const full = (await chat(emu, base)).json;
    for (const maxTokens of [1, 5, 17]) {
      const body = (await chat(emu, { ...base, max_tokens: maxTokens })).json;
      expect(body.choices[0].finish_reason).toBe('length');
      expect(body.usage.completion_tokens).toBe(maxTokens);
      expect(countTokens(body.choices[0].message.content)).toBe(maxTokens);
      expect(full.choices[0].message.content.startsWith(body.choices[0].message.content)).toBe(true);
    }
  });

  it('finishes with stop when max_tokens is not reached', async () => {
    const full = (await chat(emu, base)).json;
    const body = (await chat(emu, { ...base, max_tokens: full.usage.completion_tokens })).json;
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.content).toBe(full.choices[0].message.content);
  });

  it('cuts before the first stop string and leaves it out', async () => {
    const full: string = await contentOf(base);
    // Every reply contains " the" (see generate.ts); stop at it.
    const body = (await chat(emu, { ...base, stop: ' the' })).json;
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.content).toBe(full.slice(0, full.indexOf(' the')));
    expect(body.usage.completion_tokens).toBe(countTokens(body.choices[0].message.content));
  });

  it('uses the earliest of several stop strings', async () => {
    const full: string = await contentOf(base);
    const words = full.split(' ');
    const [late, early] = [words[words.length - 2] as string, words[3] as string];
    const content = await contentOf({ ...base, stop: [late, 'never-in-a-reply', early] });
    expect(content).toBe(full.slice(0, Math.min(full.indexOf(early), full.indexOf(late))));
    expect(content).not.toContain(early);
  });

  it('stops at a full stop, which ends every sentence', async () => {
    const full: string = await contentOf(base);
    const content = await contentOf({ ...base, stop: '.' });
    expect(content).toBe(full.slice(0, full.indexOf('.')));
    // The first sentence, up to its last word: "Word ... word" with the full stop left out.
    expect(content).toMatch(/^[A-Z][^.]*\w$/);
  });

  it('leaves the reply whole when no stop string occurs', async () => {
    const full: string = await contentOf(base);
    const body = (await chat(emu, { ...base, stop: ['zzz-not-there'] })).json;
    expect(body.choices[0].message.content).toBe(full);
    expect(body.choices[0].finish_reason).toBe('stop');
  });

  it('reports length when max_tokens cuts before the stop string is reached', async () => {
    const body = (await chat(emu, { ...base, stop: '.', max_tokens: 2 })).json;
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBe(2);
  });
});
