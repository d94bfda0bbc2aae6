/**
 * The emulator serves a batch: many requests answered at once, and --delay paces answers that are
 * not streamed too (a whole completion comes when its stream would have ended), so a batch
 * rehearsed offline takes the time it would take.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const ask = (base: string, body: object, signal?: AbortSignal) =>
  fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });

describe('emulator under a batch', () => {
  it('a reply that is not streamed comes no sooner than its stream would (delay × chunks)', async () => {
    emu = await startEmulator({ apiKeys: ['k'], delayMs: 5 });
    const body = { messages: [{ role: 'user', content: 'hello there' }], temperature: 0 };
    const streamed = await (await ask(emu.baseUrl, { ...body, stream: true })).text();
    const chunks = streamed.split('\n\n').filter((event) => event.startsWith('data: {')).length;
    const started = performance.now();
    const answer = await ask(emu.baseUrl, body);
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(chunks).toBeGreaterThan(3);
    // A lower bound only: the delay before each chunk and before [DONE].
    expect(elapsed).toBeGreaterThanOrEqual(5 * chunks);
  });

  it('answers 24 requests at once: all are in flight together while the delay runs', async () => {
    emu = await startEmulator({ apiKeys: ['k'], delayMs: 60_000 });
    const controller = new AbortController();
    const pending = Array.from({ length: 24 }, (_, index) => ask(emu!.baseUrl, { messages: [{ role: 'user', content: `q${index}` }] }, controller.signal).catch((error: unknown) => error));
    await expect.poll(() => emu!.inFlight(), { timeout: 10_000 }).toBe(24);
    controller.abort();
    const outcomes = await Promise.all(pending);
    // None was answered: every one was still being generated when the client left.
    expect(outcomes.every((outcome) => outcome instanceof Error)).toBe(true);
    await expect.poll(() => emu!.inFlight()).toBe(0);
  });
});
