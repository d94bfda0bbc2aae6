/**
 * The official openai package against the emulator: proof that the emulator speaks the wire
 * format real clients expect (bodies, SSE chunks, error shapes and statuses).
 */
import OpenAI from 'openai';
import { useSdkEmulator } from './helpers/sdk-emulator.js';
import { describe, expect, it } from 'vitest';

const sdk = useSdkEmulator();

const messages = [{ role: 'user' as const, content: 'How do bees make honey?' }];

describe('the openai SDK', () => {
  it("rebuilds a streamed completion with finalChatCompletion(), every field in place, without a warning (issue 23, item 2)", async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const whole = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, temperature: 0 });
      const runner = sdk.client.chat.completions.stream({ model: 'svc-mini', messages, temperature: 0, stream_options: { include_usage: true } });
      const final = await runner.finalChatCompletion();
      expect(final.choices[0]?.message.content).toBe(whole.choices[0]?.message.content);
      expect(final.choices[0]?.message.refusal).toBeNull();
      expect(final.choices[0]?.finish_reason).toBe('stop');
      expect(final.system_fingerprint).toBe('fp_svc_emulator');
      expect(final.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
      expect(whole.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([]);
  });

  it('parses a non-streaming completion', async () => {
    const completion = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, temperature: 0, max_tokens: 500 });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('svc-mini');
    const [choice] = completion.choices;
    expect(choice?.message.role).toBe('assistant');
    expect(choice?.message.content).toMatch(/honey|bees/);
    expect(choice?.finish_reason).toBe('stop');
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it('streams chunks with include_usage, adding up to the same reply', async () => {
    const whole = await sdk.client.chat.completions.create({ model: 'svc-mini', messages, temperature: 0 });
    const stream = await sdk.client.chat.completions.create({
      model: 'svc-mini', messages, temperature: 0, stream: true, stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(whole.usage);
  });

  it('reports length when max_tokens cuts the reply', async () => {
    const completion = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, max_tokens: 3 });
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(3);
  });

  it('throws AuthenticationError (401) for a bad key', async () => {
    const bad = new OpenAI({ baseURL: `${sdk.emu.baseUrl}/v1`, apiKey: 'not-a-key', maxRetries: 0 });
    const error = await bad.chat.completions.create({ model: 'svc-pro', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
  });

  it('throws NotFoundError for an unknown model', async () => {
    const error = await sdk.client.chat.completions.create({ model: 'svc-vision', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  it('throws BadRequestError naming the parameter for an out-of-range value', async () => {
    const error = await sdk.client.chat.completions.create({ model: 'svc-pro', messages, temperature: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('temperature');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).requestID).toMatch(/^req_/);
  });
});
