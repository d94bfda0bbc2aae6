import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { chat, chatBody } from './helpers/http.js';

const started: RunningEmulator[] = [];
const start = async (...args: Parameters<typeof startEmulator>) => {
  const emu = await startEmulator(...args);
  started.push(emu);
  return emu;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((emu) => emu.close()));
});

describe('startEmulator', () => {
  it('listens on 127.0.0.1 on a free port by default, with one random key', async () => {
    const emu = await start();
    expect(emu.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.baseUrl).not.toMatch(/:0$/);
    expect(emu.apiKeys).toHaveLength(1);
    expect(emu.apiKeys[0]).toMatch(/^emu-[0-9a-f]{24}$/);
    const other = await start();
    expect(other.apiKeys[0]).not.toBe(emu.apiKeys[0]);
    expect(other.baseUrl).not.toBe(emu.baseUrl);
    expect((await chat(emu, chatBody())).status).toBe(200);
  });

  it('uses the keys it is given, and generates one when the list is empty', async () => {
    expect((await start({ apiKeys: ['a', 'b'] })).apiKeys).toEqual(['a', 'b']);
    expect((await start({ apiKeys: [] })).apiKeys[0]).toMatch(/^emu-/);
  });

  it('brackets an IPv6 host in the base URL', async (context) => {
    const emu = await startEmulator({ host: '::1' }).catch(() => undefined);
    if (emu === undefined) {
      context.skip(); // no IPv6 loopback on this machine
      return;
    }
    started.push(emu);
    expect(emu.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await chat(emu, chatBody())).status).toBe(200);
  });

  it('rejects bad options and a port in use', async () => {
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ delayMs: -1 })).rejects.toThrow(RangeError);
    const emu = await start();
    const port = Number(new URL(emu.baseUrl).port);
    await expect(startEmulator({ port })).rejects.toThrow(/EADDRINUSE/);
  });

  it('close() ends open streams, stops listening and can be called twice', async () => {
    const emu = await startEmulator({ delayMs: 50 });
    const res = await fetch(`${emu.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKeys[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody({ stream: true })),
    });
    const reading = res.text().then((text) => ({ text }), (error: unknown) => ({ error }));
    await emu.close();
    await emu.close();
    const outcome = await reading;
    // The stream was cut: either an error, or text without the [DONE] terminator.
    if ('text' in outcome) expect(outcome.text).not.toContain('[DONE]');
    else expect(outcome.error).toBeInstanceOf(Error);
    await expect(fetch(`${emu.baseUrl}/v1/chat/completions`, { method: 'POST' })).rejects.toThrow();
  });
});
