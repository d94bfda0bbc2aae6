/**
 * Faults on demand (`svc emulator --fail N:STATUS --cut-after N --latency MS`), for testing a
 * client against the emulator, seen over HTTP. svc's own handling of them, as the client, is
 * tested in svc's test/commands/emulator-faults.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../src/server.js';
import { chat, chatBody, sseData } from './helpers/http.js';

const KEY = 'sk-faults-key-0123456789';
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function withFaults(faults: EmulatorOptions['faults']): Promise<RunningEmulator> {
  emu = await startEmulator({ apiKeys: [KEY], faults });
  return emu;
}

const get = (path: string) => fetch(`${emu!.baseUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } });

describe('--fail N:STATUS', () => {
  it("the first request answers 429 in OpenAI's shape with retry-after: 1, and the second is answered", async () => {
    const server = await withFaults({ fail: new Map([[1, 429]]) });
    const first = await chat(server, chatBody());
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(first.json).toEqual({ error: { message: expect.stringContaining('injected by svc emulator --fail'), type: 'requests', code: 'rate_limit_exceeded', param: null } });
    const second = await chat(server, chatBody());
    expect(second.status).toBe(200);
    expect(second.json.choices[0].message.content.length).toBeGreaterThan(1);
  });

  it("a 500 in OpenAI's shape, without retry-after", async () => {
    const server = await withFaults({ fail: new Map([[1, 500]]) });
    const answer = await chat(server, chatBody());
    expect(answer.status).toBe(500);
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(answer.json.error).toMatchObject({ type: 'server_error', code: 'server_error', message: 'The server had an error while processing your request (injected by svc emulator --fail).' });
  });

  it('only the request of that number fails', async () => {
    const server = await withFaults({ fail: new Map([[2, 401]]) });
    const statuses = [];
    for (const text of ['one', 'two', 'three']) statuses.push((await chat(server, chatBody({ messages: [{ role: 'user', content: text }] }))).status);
    expect(statuses).toEqual([200, 401, 200]);
  });
});

describe('--cut-after N', () => {
  it('a stream ends after N chunks, without [DONE]', async () => {
    const server = await withFaults({ cutAfter: 4 });
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody({ stream: true })),
    });
    expect(response.status).toBe(200);
    // The connection is closed mid-stream: what arrived before it is read, the rest is an error.
    let text = '';
    const decoder = new TextDecoder();
    try {
      for await (const piece of response.body!) text += decoder.decode(piece as Uint8Array, { stream: true });
    } catch {
      // the cut
    }
    const events = sseData(text);
    expect(events).toHaveLength(4);
    expect(events).not.toContain('[DONE]');
  });

  it('a whole answer is not cut', async () => {
    const server = await withFaults({ cutAfter: 1 });
    const answer = await chat(server, chatBody());
    expect(answer.status).toBe(200);
    expect(answer.json.choices[0].finish_reason).toBe('stop');
  });
});

describe('--latency MS', () => {
  it("holds the first byte: a client's shorter timeout fires", async () => {
    const server = await withFaults({ latencyMs: 600_000 });
    const request = fetch(`${server.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${KEY}` }, signal: AbortSignal.timeout(200) });
    await expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('only API requests count, and /health is the readiness probe', () => {
  it('a probe of the port, /health and a stray path take no fault: --fail 1:503 hits the first API request', async () => {
    const server = await withFaults({ fail: new Map([[1, 503]]) });
    // What a CI script's wait loop sends before the test begins.
    expect((await fetch(`${server.baseUrl}/`)).status).toBe(404);
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${server.baseUrl}/v1/files/images/000000000000000000000000.png`)).status).toBe(404);
    const first = await chat(server, chatBody());
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect((await chat(server, chatBody())).status).toBe(200);
  });

  it('GET /models counts as an API request (the second here takes the fault)', async () => {
    await withFaults({ fail: new Map([[2, 500]]) });
    expect((await get('/health')).status).toBe(200);
    expect((await get('/v1/models')).status).toBe(200);
    expect((await get('/v1/models/svc-pro')).status).toBe(500);
    expect((await get('/v1/models')).status).toBe(200);
  });

  it('/health needs no key, answers HEAD too, and is never held by --latency', async () => {
    // Held for ten minutes, the probe would outlast the test's own timeout.
    const server = await withFaults({ latencyMs: 600_000 });
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    const head = await fetch(`${server.baseUrl}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${server.baseUrl}/health`, { method: 'POST' })).status).toBe(405);
  });

  it('replaying a cassette: /health is answered by the emulator, and the faults count the /v1/ requests', async () => {
    const tapes = mkdtempSync(join(tmpdir(), 'emulator-tapes-'));
    try {
      emu = await startEmulator({ apiKeys: [KEY], replay: { dir: tapes, timing: false }, faults: { fail: new Map([[1, 500]]) } });
      expect((await fetch(`${emu.baseUrl}/health`)).status).toBe(200);
      expect((await get('/v1/models')).status).toBe(500);
      const next = await get('/v1/models');
      expect(next.status).toBe(404);
      expect(await next.text()).toContain('not_recorded');
    } finally {
      rmSync(tapes, { recursive: true, force: true });
    }
  });
});
