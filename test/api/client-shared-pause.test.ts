/**
 * The client's shared pause (svc batch): a 429 or a Retry-After is held on the pause for every
 * request instead of slept through by one; other retryable failures (5xx without Retry-After,
 * connection failures) stay the request's own backoff. Every attempt waits on the pause first.
 */
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type SharedPause } from '../../src/api/client.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

// Each test scripts exactly the attempts it expects; an unused answer or an extra request fails it.
const scripted = useScriptedServer();
let agent: Agent;
const sleeps: number[] = [];

/** A pause that records what it is asked and lets the test decide when waiting ends. */
function recordingPause() {
  const held: number[] = [];
  let waits = 0;
  let open: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const pause: SharedPause = {
    hold(ms) {
      held.push(ms);
      gate = new Promise((resolve) => (open = resolve));
    },
    async wait() {
      waits += 1;
      await gate;
    },
  };
  return { pause, held, waits: () => waits, release: () => open() };
}

function client(pause: SharedPause): ApiClient {
  return new ApiClient({
    baseUrl: scripted.server.baseUrl,
    apiKey: 'test-key-0123456789',
    userAgent: 'svc/test',
    timeoutMs: 2000,
    maxRetries: 2,
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
  }).derive({ pause });
}

beforeAll(() => {
  agent = new Agent();
});
afterAll(async () => {
  await agent.close();
});
afterEach(() => {
  sleeps.length = 0;
});

describe('ApiClient with a shared pause', () => {
  it('holds a 429 with retry-after-ms on the pause and sends again only once the pause ends', async () => {
    scripted.server.script(reply.json(429, {}, { 'retry-after-ms': '1234' }), reply.json(200, { ok: 1 }));
    const recorder = recordingPause();
    const pending = client(recorder.pause).post('x', {});
    await expect.poll(() => recorder.held).toEqual([1234]);
    // The retry waits on the pause: nothing more reaches the server until it is released.
    await expect.poll(() => recorder.waits()).toBe(2);
    expect(scripted.server.requests).toHaveLength(1);
    recorder.release();
    expect((await pending).status).toBe(200);
    expect(scripted.server.requests).toHaveLength(2);
    expect(sleeps).toEqual([]); // the client did not also sleep on its own
  });

  it('holds a 503 that names a wait (Retry-After), as the service asked everyone to wait', async () => {
    scripted.server.script(reply.json(503, {}, { 'retry-after': '2' }), reply.json(200, {}));
    const recorder = recordingPause();
    const pending = client(recorder.pause).post('x', {});
    await expect.poll(() => recorder.held).toEqual([2000]);
    recorder.release();
    await pending;
    expect(sleeps).toEqual([]);
  });

  it('a 500 without Retry-After is this request’s own backoff: the pause is not held', async () => {
    scripted.server.script(reply.json(500, {}), reply.json(200, {}));
    const recorder = recordingPause();
    await client(recorder.pause).post('x', {});
    expect(recorder.held).toEqual([]);
    expect(sleeps).toEqual([500]);
    expect(recorder.waits()).toBe(2); // still, each attempt waited for a pause others might hold
  });
});
