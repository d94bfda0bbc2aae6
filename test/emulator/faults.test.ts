/**
 * Faults on demand (issue 23, item 5): `--fail N:STATUS`, `--cut-after N` and `--latency MS`,
 * for testing a client against the emulator, seen through svc itself as a client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const KEY = 'sk-faults-key-0123456789';
let emu: RunningEmulator | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

async function withFaults(faults: EmulatorOptions['faults']): Promise<Sandbox> {
  emu = await startEmulator({ apiKeys: [KEY], faults });
  // A model named, so svc asks no model list first: the requests numbered are the chats themselves.
  sandbox = makeSandbox({ SVC_BASE_URL: emu.baseUrl, SVC_API_KEY: KEY, SVC_MODEL: 'svc-pro' });
  return sandbox;
}

describe('--fail N:STATUS', () => {
  it('the first request answers 429 with retry-after: svc waits the second it names, and the second request succeeds', async () => {
    const box = await withFaults({ fail: new Map([[1, 429]]) });
    const result = await runSvc(['chat', '--no-save', 'hello'], box);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.retryWaits).toEqual([1000]);
    expect(result.stdout.length).toBeGreaterThan(1);
  });

  it("a 500 in OpenAI's shape: the service's words, exit 1 without retries", async () => {
    const box = await withFaults({ fail: new Map([[1, 500]]) });
    const result = await runSvc(['chat', '--no-save', '--max-retries', '0', 'hello'], box);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('The server had an error while processing your request (injected by svc emulator --fail)');
  });

  it('only the request of that number fails', async () => {
    const box = await withFaults({ fail: new Map([[2, 401]]) });
    expect((await runSvc(['chat', '--no-save', 'one'], box)).exitCode).toBe(0);
    expect((await runSvc(['chat', '--no-save', 'two'], box)).exitCode).toBe(3);
    expect((await runSvc(['chat', '--no-save', 'three'], box)).exitCode).toBe(0);
  });
});

describe('--cut-after N', () => {
  it('a stream ends after N chunks without [DONE]: the text so far, exit 6', async () => {
    const box = await withFaults({ cutAfter: 4 });
    const result = await runSvc(['chat', '--no-save', '-t', '0', 'tell me about tides'], box);
    expect(result.exitCode).toBe(6);
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(result.stderr).toContain('stream interrupted');
  });
});

describe('--latency MS', () => {
  it("holds the first byte: a client's shorter timeout fires (exit 6)", async () => {
    const box = await withFaults({ latencyMs: 3000 });
    const result = await runSvc(['chat', '--no-save', '--timeout', '0.2', '--max-retries', '0', 'hello'], box);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('timeout: no answer');
  });
});

describe('svc emulator flags', () => {
  it.each([['--fail', 'x'], ['--fail', '0:500'], ['--fail', '1:418'], ['--cut-after', '-1'], ['--latency', 'soon']])('%s %s is a usage error', async (flag, value) => {
    const result = await runSvc(['emulator', flag, value], makeSandbox());
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(flag);
  });
});

describe('only API requests count, and /health is the readiness probe', () => {
  it('a probe of the port, /health and a stray path take no fault: --fail 1:503 hits the first API request', async () => {
    const box = await withFaults({ fail: new Map([[1, 503]]) });
    // What a CI script's wait loop sends before the test begins.
    expect((await fetch(`${emu!.baseUrl}/`)).status).toBe(404);
    const health = await fetch(`${emu!.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${emu!.baseUrl}/v1/files/images/000000000000000000000000.png`)).status).toBe(404);
    const first = await runSvc(['chat', '--no-save', '--max-retries', '0', 'hello'], box);
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain('injected by svc emulator --fail');
    expect((await runSvc(['chat', '--no-save', 'hello'], box)).exitCode).toBe(0);
  });

  it('GET /models counts as an API request (the second here takes the fault)', async () => {
    await withFaults({ fail: new Map([[2, 500]]) });
    const get = (path: string) => fetch(`${emu!.baseUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect((await get('/health')).status).toBe(200);
    expect((await get('/v1/models')).status).toBe(200);
    expect((await get('/v1/models/svc-pro')).status).toBe(500);
    expect((await get('/v1/models')).status).toBe(200);
  });

  it('/health needs no key, answers HEAD too, and is never held by --latency', async () => {
    // Held for ten minutes, the probe would outlast the test's own timeout.
    await withFaults({ latencyMs: 600_000 });
    expect((await fetch(`${emu!.baseUrl}/health`)).status).toBe(200);
    const head = await fetch(`${emu!.baseUrl}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${emu!.baseUrl}/health`, { method: 'POST' })).status).toBe(405);
  });

  it('replaying a cassette: /health is answered by the emulator, and the faults count the /v1/ requests', async () => {
    const tapes = makeSandbox();
    try {
      emu = await startEmulator({ apiKeys: [KEY], replay: { dir: tapes.home, timing: false }, faults: { fail: new Map([[1, 500]]) } });
      expect((await fetch(`${emu.baseUrl}/health`)).status).toBe(200);
      const get = (path: string) => fetch(`${emu!.baseUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect((await get('/v1/models')).status).toBe(500);
      const next = await get('/v1/models');
      expect(next.status).toBe(404);
      expect(await next.text()).toContain('not_recorded');
    } finally {
      tapes.cleanup();
    }
  });
});
