/**
 * What ordinary OpenAI client code sends, accepted and honoured by the emulator (issue 23,
 * item 1), checked with the official SDK: `n`, `seed`, `max_completion_tokens`,
 * `response_format` (json_object and json_schema, through the SDK's own `parse()`), messages with
 * role `developer` and `tool`, and content as an array of parts.
 */
import OpenAI from 'openai';
import { countTokens } from '../src/core/tokenizer.js';
import { useSdkEmulator } from './helpers/sdk-emulator.js';
import { describe, expect, it } from 'vitest';

const sdk = useSdkEmulator();

const messages = [{ role: 'user' as const, content: 'Suggest names for a bakery in Lisbon' }];

describe('n', () => {
  it('makes that many choices, indexed; with a seed they differ and come back the same', async () => {
    const ask = () => sdk.client.chat.completions.create({ model: 'svc-mini', messages, n: 3, seed: 7, temperature: 1 });
    const first = await ask();
    expect(first.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    const texts = first.choices.map((choice) => choice.message.content);
    expect(new Set(texts).size).toBe(3);
    expect((await ask()).choices.map((choice) => choice.message.content)).toEqual(texts);
    const total = first.choices.reduce((sum, choice) => sum + (choice.message.content?.length ?? 0), 0);
    expect(total).toBeGreaterThan(0);
  });

  it('streams the choices side by side, as OpenAI does, not one after another', async () => {
    const stream = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, n: 3, seed: 4, temperature: 1, stream: true });
    const order: number[] = [];
    for await (const chunk of stream) for (const choice of chunk.choices) order.push(choice.index);
    // The first three chunks open the three choices, and each choice's chunks spread over the stream.
    expect(order.slice(0, 3)).toEqual([0, 1, 2]);
    const last = (index: number) => order.lastIndexOf(index);
    const first = (index: number) => order.indexOf(index);
    for (const index of [0, 1, 2]) expect(first(index)).toBeLessThan(Math.min(last(0), last(1), last(2)));
  });

  it('streams each choice under its index; finalChatCompletion() rebuilds them all', async () => {
    const runner = sdk.client.chat.completions.stream({ model: 'svc-mini', messages, n: 2, seed: 3, temperature: 1 });
    const final = await runner.finalChatCompletion();
    const whole = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, n: 2, seed: 3, temperature: 1 });
    expect(final.choices.map((choice) => choice.message.content)).toEqual(whole.choices.map((choice) => choice.message.content));
    expect(final.choices.map((choice) => choice.finish_reason)).toEqual(['stop', 'stop']);
  });
});

describe('seed', () => {
  it('the same seed and messages give the same reply at any temperature; another seed, another reply', async () => {
    const ask = (seed: number) => sdk.client.chat.completions.create({ model: 'svc-pro', messages, seed, temperature: 1.5 });
    const a = (await ask(42)).choices[0]?.message.content;
    expect((await ask(42)).choices[0]?.message.content).toBe(a);
    expect((await ask(43)).choices[0]?.message.content).not.toBe(a);
  });
});

describe('max_completion_tokens', () => {
  it('cuts the reply as max_tokens does', async () => {
    const completion = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, max_completion_tokens: 5 });
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(5);
  });
});

describe('response_format', () => {
  it('json_object: the reply is a JSON object', async () => {
    // OpenAI wants the word in the messages (client-fields.test.ts has the refusal without it).
    const asked = [{ role: 'system' as const, content: 'Answer in JSON.' }, ...messages];
    const completion = await sdk.client.chat.completions.create({ model: 'svc-pro', messages: asked, response_format: { type: 'json_object' } });
    const value = JSON.parse(completion.choices[0]?.message.content ?? '') as Record<string, unknown>;
    expect(typeof value.answer).toBe('string');
    expect(value.keywords).toContain('bakery');
  });

  it("json_schema: a value valid against the schema, read by the SDK's parse()", async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        founded: { type: 'integer', minimum: 1900, maximum: 2025 },
        rating: { type: 'number', minimum: 0, maximum: 5 },
        open: { type: 'boolean' },
        style: { type: 'string', enum: ['modern', 'classic'] },
        products: { type: 'array', items: { $ref: '#/$defs/product' }, minItems: 2 },
        owner: { anyOf: [{ type: 'null' }, { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'], additionalProperties: false }] },
      },
      required: ['name', 'founded', 'rating', 'open', 'style', 'products', 'owner'],
      additionalProperties: false,
      $defs: { product: { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } }, required: ['title', 'price'], additionalProperties: false } },
    };
    const completion = await sdk.client.chat.completions.parse({
      model: 'svc-pro',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'bakery', schema, strict: true } },
    });
    const parsed = completion.choices[0]?.message.parsed as unknown as Record<string, unknown>;
    expect(parsed).toEqual({
      name: expect.any(String),
      founded: expect.any(Number),
      rating: expect.any(Number),
      open: true,
      style: 'modern',
      products: [
        { title: expect.any(String), price: expect.any(Number) },
        { title: expect.any(String), price: expect.any(Number) },
      ],
      owner: { email: expect.stringMatching(/@example\.com$/) },
    });
    expect(Number.isInteger(parsed.founded)).toBe(true);
    expect(parsed.founded as number).toBeGreaterThanOrEqual(1900);
    expect(parsed.founded as number).toBeLessThanOrEqual(2025);
    expect(parsed.rating as number).toBeLessThanOrEqual(5);
  });
});

describe('messages as clients send them', () => {
  it('a developer message, content parts (text and an image), and a tool result after a tool call', async () => {
    const completion = await sdk.client.chat.completions.create({
      model: 'svc-pro',
      messages: [
        { role: 'developer', content: 'You answer briefly.' },
        { role: 'user', content: [{ type: 'text', text: 'What is in this picture of a lighthouse?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'a white lighthouse on rocks' },
        { role: 'user', content: 'And the weather?' },
      ],
    });
    const choice = completion.choices[0]!;
    // The last message asks about the weather: the reply is words about it.
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.content).toMatch(/weather/i);
    // Each message's framing and text, the call's name and arguments, and the linked image (not
    // fetched: counted as a low-detail one, 85 tokens).
    const texts = ['You answer briefly.', 'What is in this picture of a lighthouse?', '', 'a white lighthouse on rocks', 'And the weather?'];
    const expected = 3 + texts.reduce((sum, text) => sum + 4 + countTokens(text), 0) + countTokens('look') + countTokens('{}') + 85;
    expect(completion.usage?.prompt_tokens).toBe(expected);
  });
});

describe('images as OpenAI clients ask for them', () => {
  it('n images, each with the next seed (so each can be made again alone)', async () => {
    // `seed` is the service's own field (docs/service-api.md, "Images"), not OpenAI's: the SDK
    // passes it on.
    const withSeed = (params: OpenAI.ImageGenerateParamsNonStreaming, seed: number) => ({ ...params, seed }) as OpenAI.ImageGenerateParamsNonStreaming;
    const two = await sdk.client.images.generate(withSeed({ model: 'svc-vision', prompt: 'a red kite', n: 2, size: '1024x1024', quality: 'hd', style: 'vivid' }, 11));
    expect(two.data).toHaveLength(2);
    const again = await sdk.client.images.generate(withSeed({ model: 'svc-vision', prompt: 'a red kite' }, 12));
    expect(two.data?.[1]?.b64_json).toBe(again.data?.[0]?.b64_json);
    expect(two.data?.[0]?.b64_json).not.toBe(two.data?.[1]?.b64_json);
  });

  it('response_format url: a link served without the key, the image in the format asked for', async () => {
    const answer = await sdk.client.images.generate({ model: 'svc-vision', prompt: 'a lighthouse', size: '1792x1024', response_format: 'url' });
    const url = answer.data?.[0]?.url ?? '';
    expect(url).toMatch(new RegExp(`^${sdk.emu.baseUrl}/v1/files/images/[0-9a-f]{24}\\.png$`));
    expect(answer.data?.[0]?.b64_json).toBeUndefined();
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    // 16:9, the ratio nearest to 1792x1024.
    expect(bytes.readUInt32BE(16) / bytes.readUInt32BE(20)).toBeCloseTo(16 / 9, 1);
    expect((await fetch(url.replace(/[0-9a-f]{24}/, '0'.repeat(24)))).status).toBe(404);
  });
});

describe('tools', () => {
  const tools: OpenAI.ChatCompletionTool[] = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'], additionalProperties: false },
      },
    },
    { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } } },
  ];

  it('a forced function: a tool_calls reply with arguments valid against its parameters', async () => {
    const completion = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^call_/);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: expect.any(String), unit: 'celsius' });
  });

  it('auto: a tool is called when the message names it; after its result the answer is text', async () => {
    const asked = await sdk.client.chat.completions.create({ model: 'svc-pro', messages: [{ role: 'user', content: 'Please get time in Lisbon' }], tools });
    const call = asked.choices[0]!.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('get_time');
    const plain = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, tools });
    expect(plain.choices[0]!.message.tool_calls).toBeUndefined();
    expect(plain.choices[0]!.finish_reason).toBe('stop');
    const answered = await sdk.client.chat.completions.create({
      model: 'svc-pro',
      tools,
      messages: [{ role: 'user', content: 'Please get time in Lisbon' }, asked.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '14:05' }],
    });
    expect(answered.choices[0]!.finish_reason).toBe('stop');
    // The answer quotes the result, so the round trip shows.
    expect(answered.choices[0]!.message.content).toBe('The get_time tool returned: "14:05". That answers your question about Lisbon.');
  });

  it('auto: every function the message asks for, in parallel and in its order; parallel_tool_calls false, the first', async () => {
    const question = [{ role: 'user' as const, content: 'What is the time in Tokyo, and the weather in Paris?' }];
    const both = await sdk.client.chat.completions.create({ model: 'svc-pro', messages: question, tools, seed: 9 });
    const calls = (both.choices[0]!.message.tool_calls ?? []) as OpenAI.ChatCompletionMessageFunctionToolCall[];
    expect(calls.map((call) => call.function.name)).toEqual(['get_time', 'get_weather']);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    // Each call's arguments come from its own part of the question, not from the word that chose it.
    expect(calls.map((call) => JSON.parse(call.function.arguments) as object)).toEqual([{ zone: 'Tokyo' }, { city: 'Paris', unit: expect.any(String) }]);
    expect(both.choices[0]!.finish_reason).toBe('tool_calls');
    const one = await sdk.client.chat.completions.create({ model: 'svc-pro', messages: question, tools, parallel_tool_calls: false });
    expect((one.choices[0]!.message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[]).map((call) => call.function.name)).toEqual(['get_time']);
    // Streamed, each call under its own index; the SDK puts them back together.
    const streamed = await sdk.client.chat.completions.stream({ model: 'svc-pro', messages: question, tools, seed: 9 }).finalChatCompletion();
    expect(streamed.choices[0]!.message.tool_calls).toEqual(calls);
    // A word that only looks like a subject is not one ("timeless" is not "time").
    const none = await sdk.client.chat.completions.create({ model: 'svc-pro', messages: [{ role: 'user', content: 'Write a timeless poem' }], tools });
    expect(none.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it("the SDK's runTools() loop runs the tools the question asks for, then ends in text", async () => {
    const ran: string[] = [];
    const tool = (name: string, parameters: Record<string, unknown>) => ({
      type: 'function' as const,
      function: { name, description: name, parameters, parse: JSON.parse, function: (args: object) => { ran.push(`${name} ${JSON.stringify(args)}`); return { ok: true }; } },
    });
    const runner = sdk.client.chat.completions.runTools({
      model: 'svc-pro',
      messages: [{ role: 'user', content: 'What is the weather in Paris and the time in Tokyo?' }],
      tools: [
        tool('get_weather', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
        tool('get_time', { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] }),
      ],
    });
    const text = await runner.finalContent();
    expect(ran.map((line) => line.split(' ')[0])).toEqual(['get_weather', 'get_time']);
    expect(text?.length).toBeGreaterThan(0);
  });

  it('the order of a tool loop is checked as OpenAI checks it: every call answered, every answer to a call', async () => {
    const user = { role: 'user' as const, content: 'Please get time in Lisbon and weather in Porto' };
    const calls: OpenAI.ChatCompletionMessageToolCall[] = [
      { id: 'call_a', type: 'function', function: { name: 'get_time', arguments: '{"zone":"Europe/Lisbon"}' } },
      { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Porto","unit":"celsius"}' } },
    ];
    const assistant = { role: 'assistant' as const, content: null, tool_calls: calls };
    const result = (id: string) => ({ role: 'tool' as const, tool_call_id: id, content: 'ok' });
    const refused = async (list: OpenAI.ChatCompletionMessageParam[]) => {
      const error = await sdk.client.chat.completions.create({ model: 'svc-pro', tools, messages: list }).then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const { param, message } = error as InstanceType<typeof OpenAI.BadRequestError>;
      return { param, message };
    };
    // Both results, in either order: an answer.
    const answered = await sdk.client.chat.completions.create({ model: 'svc-pro', tools, messages: [user, assistant, result('call_b'), result('call_a')] });
    expect(answered.choices[0]!.finish_reason).toBe('stop');
    // One result missing, whether the conversation ends there or goes on.
    for (const list of [[user, assistant, result('call_a')], [user, assistant, result('call_a'), user]]) {
      expect(await refused(list)).toEqual({ param: 'messages[1].role', message: expect.stringMatching(/must be followed by tool messages .* did not have response messages: call_b$/) as unknown as string });
    }
    expect(await refused([user, assistant, result('call_a'), result('call_x')])).toEqual({ param: 'messages[3].tool_call_id', message: "400 Invalid parameter: 'tool_call_id' of 'call_x' not found in 'tool_calls' of previous message." });
    expect(await refused([user, result('call_a')])).toMatchObject({ param: 'messages[1].role', message: expect.stringContaining("role 'tool' must be a response to a preceeding message with 'tool_calls'") as unknown as string });
  });

  it('streamed as OpenAI streams them: finalChatCompletion() rebuilds the call', async () => {
    const request = { model: 'svc-pro', messages, tools, tool_choice: 'required' as const, seed: 5 };
    const whole = await sdk.client.chat.completions.create(request);
    const final = await sdk.client.chat.completions.stream(request).finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.choices[0]!.message.tool_calls).toEqual(whole.choices[0]!.message.tool_calls);
  });

  it.each([
    ['a tool that is not a function', { tools: [{ type: 'retrieval' }] }, 'tools[0].type'],
    ['a tool_choice naming no tool', { tools, tool_choice: { type: 'function', function: { name: 'nope' } } }, 'tool_choice'],
    ['required without tools', { tool_choice: 'required' }, 'tool_choice'],
  ])('refuses %s (400 naming %s)', async (_what, fields, param) => {
    const answer = await fetch(`${sdk.emu.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.emu.apiKeys[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages, ...fields }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { param: string } }).error.param).toBe(param);
  });
});

describe('logprobs', () => {
  it('each token with its log probability and top_logprobs alternatives, the chosen one the likeliest', async () => {
    const completion = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, logprobs: true, top_logprobs: 3, max_tokens: 12 });
    const choice = completion.choices[0]!;
    const content = choice.logprobs?.content ?? [];
    expect(completion.usage!.completion_tokens).toBe(12);
    expect(content).toHaveLength(12);
    expect(content.map((entry) => entry.token).join('')).toBe(choice.message.content);
    for (const entry of content) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      expect(entry.top_logprobs).toHaveLength(3);
      expect(entry.top_logprobs[0]!.token).toBe(entry.token);
      expect(Math.max(...entry.top_logprobs.map((alt) => alt.logprob))).toBe(entry.logprob);
      expect(Buffer.from(entry.bytes ?? []).toString()).toBe(entry.token);
    }
  });

  it('streamed per token; finalChatCompletion() gathers them', async () => {
    const final = await sdk.client.chat.completions.stream({ model: 'svc-mini', messages, logprobs: true, max_tokens: 8 }).finalChatCompletion();
    const choice = final.choices[0]!;
    expect(choice.logprobs?.content?.map((entry) => entry.token).join('')).toBe(choice.message.content);
  });

  it('without logprobs: null, as OpenAI sends', async () => {
    expect((await sdk.client.chat.completions.create({ model: 'svc-mini', messages })).choices[0]!.logprobs).toBeNull();
  });

  it('top_logprobs without logprobs is a 400 naming it', async () => {
    await expect(sdk.client.chat.completions.create({ model: 'svc-mini', messages, top_logprobs: 2 })).rejects.toMatchObject({ status: 400, param: 'top_logprobs' });
  });
});
