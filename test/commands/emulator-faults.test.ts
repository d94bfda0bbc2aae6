/**
 * Faults on demand: `svc emulator --fail N:STATUS`, `--cut-after N` and `--latency MS`, for
 * testing a client against the emulator, seen through svc itself as the client (the emulator's
 * own tests see them over HTTP: packages/emulator/test/faults.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '@svc/emulator';
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

describe('only API requests count', () => {
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
});
