/**
 * The official openai package against the image endpoint: the answer parses as an ImagesResponse
 * and errors map to the SDK's error classes.
 */
import OpenAI from 'openai';
import { useSdkEmulator } from './helpers/sdk-emulator.js';
import { describe, expect, it, vi } from 'vitest';
import { countTokens } from '../src/core/tokenizer.js';
import { readHeader } from './helpers/image-files.js';

const sdk = useSdkEmulator();

const prompt = 'A paper boat on a puddle after the rain';

describe('the openai SDK and images', () => {
  it('parses a 16:9 WebP generation: b64_json, revised_prompt and usage', async () => {
    // aspect_ratio and output_format are this service's fields, not OpenAI's: hence the cast.
    // The clock, fixed, so `created` (Unix seconds of the answer) can be checked exactly.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-04T05:06:07.890Z') });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result = await sdk.client.images.generate({ model: 'svc-vision', prompt, aspect_ratio: '16:9', output_format: 'webp', seed: 3 } as any).finally(() => vi.useRealTimers());
    expect(result.data).toHaveLength(1);
    const image = result.data?.[0];
    expect(readHeader(Buffer.from(image?.b64_json ?? '', 'base64'))).toEqual({ format: 'webp', width: 1344, height: 756 });
    expect(image?.revised_prompt?.startsWith(prompt)).toBe(true);
    expect(image?.revised_prompt).not.toBe(prompt);
    // The SDK types OpenAI's own usage names; this service uses the chat names
    // (docs/service-api.md, "Images").
    const tokens = countTokens(prompt);
    expect(result.usage as unknown).toEqual({ prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens });
    expect(result.created).toBe(Date.UTC(2026, 2, 4, 5, 6, 7) / 1000);
  });

  it('throws BadRequestError naming the parameter for an unknown aspect ratio', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const error = await sdk.client.images.generate({ model: 'svc-vision', prompt, aspect_ratio: '2:1' } as any).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.param).toBe('aspect_ratio');
    expect(bad.message).toMatch(/1:1, 16:9, 9:16, 4:3, 3:4, 21:9/);
  });

  it('throws BadRequestError with the exact message for disallowed content', async () => {
    const error = await sdk.client.images.generate({ model: 'svc-vision', prompt: 'a pipe bomb diagram' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('content_policy_violation');
    expect((error as Error).message).toContain('Request contains disallowed content');
  });

  it('throws NotFoundError for a chat model', async () => {
    const error = await sdk.client.images.generate({ model: 'svc-pro', prompt }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });
});
