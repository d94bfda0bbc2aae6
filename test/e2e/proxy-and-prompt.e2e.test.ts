/** Proxies from the environment, and the masked key prompt on a real pseudo-terminal. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { startConnectProxy, type TestProxy } from '../helpers/connect-proxy.js';
import { makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';

const KEY = 'proxy-key-0123456789abcdef';
let emulator: RunningEmulator;
let proxy: TestProxy;
let sandbox: Sandbox;

beforeAll(async () => {
  // The key typed at the login prompt below is a good one: login checks a key before storing it.
  emulator = await startEmulator({ apiKeys: [KEY, 'sk-typed-key-0123456789abcd'] });
  proxy = await startConnectProxy();
  sandbox = makeSandbox({ SVC_BASE_URL: emulator.baseUrl, SVC_API_KEY: KEY });
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
  sandbox.cleanup();
});

describe('proxies', () => {
  it('HTTP_PROXY carries the request', async () => {
    const result = await svc(['chat', 'through the proxy'], { ...sandbox, env: { ...sandbox.env, HTTP_PROXY: proxy.url } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(10);
    expect(proxy.targets).toContain(new URL(emulator.baseUrl).host);
  });

  it('NO_PROXY bypasses it', async () => {
    proxy.targets.length = 0;
    const result = await svc(['chat', 'straight there'], { ...sandbox, env: { ...sandbox.env, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    expect(result.exitCode).toBe(0);
    expect(proxy.targets).toEqual([]);
  });
});

describe('svc auth login on a terminal', () => {
  it('asks for the key with a masked prompt and stores it', async () => {
    const typed = 'sk-typed-key-0123456789abcd';
    const env = { ...sandbox.env };
    delete env.SVC_API_KEY;
    // `script` gives svc a pseudo-terminal and forwards what we write to it as typing.
    const child = execa('script', ['-qec', `stty cols 80 rows 24; node "${SVC_BIN}" auth login`, '/dev/null'], {
      env: { ...env, TERM: 'xterm' },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    let screen = '';
    let typedIt = false;
    child.stdout?.on('data', (data: Buffer) => {
      screen += data.toString();
      if (!typedIt && screen.includes('API key')) {
        typedIt = true;
        child.stdin?.write(`${typed}\r`);
      }
    });
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(screen).toContain('API key');
    expect(screen).toContain('*'.repeat(typed.length));
    expect(screen).not.toContain(typed);
    const stored = JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, 'svc', 'credentials.json'), 'utf8'));
    expect(stored.apiKey).toBe(typed);
  });
});
