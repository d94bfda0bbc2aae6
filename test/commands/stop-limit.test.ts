/**
 * `--stop` takes at most four values, as the service (and the emulator) do: a fifth is a usage
 * error before anything is sent, not a 400 after a request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { startEmulator, type RunningEmulator } from '@svc/emulator';

const COMPLETION = { id: 'c1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }] };
const stops = (n: number) => Array.from({ length: n }, (_, i) => ['--stop', `s${i}`]).flat();

let server: ScriptedServer;
let sandbox: Sandbox;
beforeAll(async () => {
  server = await startScriptedServer(reply.json(200, COMPLETION));
  sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'env-key-0123456789' });
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

describe('--stop', () => {
  it('five values: exit 2, a message naming --stop and the limit, nothing sent', async () => {
    server.requests.length = 0;
    const result = await runSvc(['chat', '--no-save', ...stops(5), 'hi'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--stop was given 5 times; the service accepts at most 4 stop sequences');
    expect(result.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });

  it('four values are sent as an array of four', async () => {
    server.requests.length = 0;
    const result = await runSvc(['chat', '--no-save', '--no-stream', ...stops(4), 'hi'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(server.requests[0]!.body).stop).toEqual(['s0', 's1', 's2', 's3']);
  });
});

describe('the emulator agrees on the limit', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ apiKeys: ['emu-key-0123456789'] });
  });
  afterAll(() => emulator.close());

  it.each([
    [4, 200],
    [5, 400],
  ])('a request with %i stop sequences gets HTTP %i', async (count, status) => {
    const response = await fetch(`${emulator.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer emu-key-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-pro', messages: [{ role: 'user', content: 'hi' }], stop: Array.from({ length: count }, (_, i) => `s${i}`) }),
    });
    expect(response.status).toBe(status);
  });
});
