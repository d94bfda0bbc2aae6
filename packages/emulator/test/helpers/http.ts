/**
 * Test helpers: a small fetch-based client for a running emulator and an SSE parser.
 */
import { expect } from 'vitest';
import type { RunningEmulator } from '../../src/server.js';

/** A response with its JSON (or text) body already read. */
export interface Answer {
  status: number;
  headers: Headers;
  // Tests poke at arbitrary JSON; `any` keeps the assertions readable.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

/** The chat endpoint's path. */
export const CHAT_PATH = '/v1/chat/completions';

/** A minimal valid request body, with `extra` merged in. */
export function chatBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messages: [{ role: 'user', content: 'How do I bake sourdough bread at home?' }], ...extra };
}

/** Sends a request; `body` objects are JSON-encoded, strings and bytes sent as they are. */
export async function send(
  emu: RunningEmulator,
  options: { path?: string; method?: string; body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
): Promise<Answer> {
  const { path = CHAT_PATH, method = 'POST', body, key = emu.apiKeys[0] } = options;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  const res = await fetch(emu.baseUrl + path, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Posts a chat request body. */
export function chat(emu: RunningEmulator, body: unknown): Promise<Answer> {
  return send(emu, { body });
}

/** The `data:` payloads of an SSE text, in order (`[DONE]` kept as a string, the rest parsed). */
export function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      if (!block.startsWith('data: ')) throw new Error(`not a data event: ${JSON.stringify(block)}`);
      const data = block.slice('data: '.length);
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}

/**
 * The expected error body for `toEqual`: the OpenAI shape with exactly these four keys, `code` and
 * `param` null unless given.
 */
export function errorShape(fields: { message?: unknown; type?: unknown; code?: unknown; param?: unknown }): unknown {
  return {
    error: { message: expect.any(String), type: 'invalid_request_error', code: null, param: null, ...fields },
  };
}

/** The image endpoint's path. */
export const IMAGES_PATH = '/v1/images/generations';

/** A minimal valid image request body, with `extra` merged in. */
export function imageBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { prompt: 'A lighthouse on a rocky coast at dusk', ...extra };
}

/** Posts an image request body. */
export function generate(emu: RunningEmulator, body: unknown): Promise<Answer> {
  return send(emu, { path: IMAGES_PATH, body });
}

/** The bytes of the first image of a successful image answer. */
export function imageBytes(answer: Answer): Buffer {
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return Buffer.from(answer.json.data[0].b64_json as string, 'base64');
}
