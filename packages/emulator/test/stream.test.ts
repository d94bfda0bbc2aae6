import { once } from 'node:events';
import { ServerResponse, request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { chat, chatBody, sseData } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());
afterEach(() => {
  vi.restoreAllMocks();
});

type Chunk = { id: string; object: string; created: number; model: string; choices: { index: number; delta: { role?: string; content?: string }; finish_reason: string | null }[]; usage?: unknown };

const base = { messages: [{ role: 'user', content: 'Why is the sky blue?' }], temperature: 0 };

async function streamed(body: Record<string, unknown>) {
  const answer = await chat(emu, { ...body, stream: true });
  const events = sseData(answer.text);
  expect(events.at(-1)).toBe('[DONE]');
  return { answer, events, chunks: events.slice(0, -1) as Chunk[] };
}

describe('streaming', () => {
  it('sends SSE headers and the chunks in order: role, tokens, finish, [DONE]', async () => {
    const { answer, chunks } = await streamed(base);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    expect(answer.text.endsWith('data: [DONE]\n\n')).toBe(true);

    const [first, ...rest] = chunks;
    const last = rest.pop() as Chunk;
    expect(first?.choices).toEqual([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]);
    expect(rest.length).toBeGreaterThan(10);
    for (const chunk of rest) {
      expect(chunk.choices).toEqual([{ index: 0, delta: { content: expect.any(String) }, logprobs: null, finish_reason: null }]);
      expect(chunk.choices[0]?.delta.content).not.toBe('');
    }
    expect(last.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: first?.id, object: 'chat.completion.chunk', created: first?.created, model: 'svc-pro' });
      expect(chunk).not.toHaveProperty('usage');
    }
    expect(first?.id).toMatch(/^chatcmpl-/);
  });

  it('streams deltas that add up to the non-streaming content of the same request', async () => {
    const whole = (await chat(emu, base)).json;
    const { chunks } = await streamed(base);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(whole.choices[0].message.content);
    expect(chunks.length - 2).toBe(whole.usage.completion_tokens);
  });

  it('adds a usage chunk with no choices when include_usage is set, and usage null before it', async () => {
    const whole = (await chat(emu, base)).json;
    const { chunks } = await streamed({ ...base, stream_options: { include_usage: true } });
    const usageChunk = chunks.at(-1) as Chunk;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual(whole.usage);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();
  });

  it('omits the usage chunk when include_usage is false', async () => {
    const { chunks } = await streamed({ ...base, stream_options: { include_usage: false } });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
  });

  it('honours max_tokens with a length finish chunk', async () => {
    const { chunks } = await streamed({ ...base, max_tokens: 4, stream_options: { include_usage: true } });
    expect(chunks).toHaveLength(1 + 4 + 1 + 1);
    expect(chunks[5]?.choices[0]?.finish_reason).toBe('length');
    expect(chunks[6]?.usage).toMatchObject({ completion_tokens: 4 });
  });

  it('answers errors as JSON, not as a stream', async () => {
    const answer = await chat(emu, chatBody({ stream: true, model: 'nope' }));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json');
  });
});

describe('streaming with a delay', () => {
  it('delivers the chunks over several reads and still completes', async () => {
    const slow = await startEmulator({ delayMs: 5 });
    try {
      const res = await fetch(`${slow.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${slow.apiKeys[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...base, stream: true, max_tokens: 20 }),
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let reads = 0;
      let text = '';
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        reads += 1;
        text += decoder.decode(r.value, { stream: true });
      }
      expect(reads).toBeGreaterThan(1);
      const events = sseData(text);
      expect(events).toHaveLength(1 + 20 + 1 + 1);
      expect(events.at(-1)).toBe('[DONE]');
    } finally {
      await slow.close();
    }
  });
});

describe('a client that disconnects mid-stream', () => {
  it('stops the stream at once, without crashing, and the server keeps serving', async () => {
    const slow = await startEmulator({ delayMs: 20 });
    const write = vi.spyOn(ServerResponse.prototype, 'write');
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(`${slow.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${slow.apiKeys[0]}`, 'content-type': 'application/json' },
        }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.end(JSON.stringify({ ...base, stream: true }));
      });
      // The server's side of the stream, and the moment it saw the hang-up.
      const hungUp = write.mock.contexts[0] as ServerResponse;
      if (!hungUp.destroyed) await once(hungUp, 'close');
      const writesToHungUp = () => write.mock.contexts.filter((context) => context === hungUp).length;
      const writesAtHangUp = writesToHungUp();

      // A whole request on the same emulator waits through more token delays than one: a timer
      // of the hung-up stream that had not been cancelled would have fired (and written) first.
      const after = await chat(slow, { ...base, max_tokens: 3 });
      expect(writesToHungUp()).toBe(writesAtHangUp);
      // It was stopped, not finished: no [DONE] ever went to it.
      const written = write.mock.calls.filter((_call, index) => write.mock.contexts[index] === hungUp).map(([data]) => String(data));
      expect(written.some((data) => data.includes('[DONE]'))).toBe(false);

      // And the next client gets the same reply as from an emulator that never saw a hang-up.
      expect(after.status).toBe(200);
      const fresh = await chat(emu, { ...base, max_tokens: 3 });
      expect(after.json.choices[0].message.content).toBe(fresh.json.choices[0].message.content);
      expect(after.json.usage.completion_tokens).toBe(3);
    } finally {
      await slow.close();
    }
  });
});
