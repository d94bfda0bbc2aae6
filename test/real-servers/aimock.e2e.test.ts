/**
 * svc against a third-party OpenAI-shaped mock server, @copilotkit/aimock, with the fixtures in
 * docs/aimock-fixtures.json (docs/real-servers.md). Runs only when SVC_AIMOCK_CLI names aimock's
 * dist/cli.js: `npm run test:real`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultPromise } from 'execa';
import { freePort, startServer } from './start-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, svc, type Sandbox } from '../helpers/run-svc.js';

const cli = process.env.SVC_AIMOCK_CLI;
const FIXTURES = fileURLToPath(new URL('../../docs/aimock-fixtures.json', import.meta.url));
const KEY = `sk-aimock-${process.pid}`;

let server: ResultPromise | undefined;
let sandbox: Sandbox;

describe.skipIf(!cli)('svc against aimock (set SVC_AIMOCK_CLI to run)', () => {
  beforeAll(async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    server = (await startServer(process.execPath, [cli!, '-p', String(port), '-h', '127.0.0.1', '-f', FIXTURES], { AIMOCK_API_KEYS: KEY }, async () => {
      await fetch(`${baseUrl}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
      return true;
    })).process;
    sandbox = makeSandbox({ SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY });
  }, 60_000);
  afterAll(async () => {
    server?.kill();
    await server;
    sandbox?.cleanup();
  });

  it('chat, streamed and not, exactly the fixture text', async () => {
    const streamed = await svc(['chat', '--no-save', 'hello'], sandbox);
    expect(streamed.exitCode, streamed.stderr).toBe(0);
    expect(streamed.stdout).toBe('Hello! How can I help you today?');
    const whole = await svc(['chat', '--no-save', '--no-stream', 'write a haiku'], sandbox);
    expect(whole.stdout).toBe('Old pond, a frog leaps.\nThe sound of water.\nSilence again.');
  });

  it('images as b64_json and as a URL, saved and checked alike', async () => {
    const b64 = await svc(['image', 'a lighthouse', '-o', 'lighthouse.png'], sandbox);
    expect(b64.exitCode, b64.stderr).toBe(0);
    expect(b64.stdout).toBe('a small lighthouse, blue hour');
    const url = await svc(['image', 'a harbour', '-o', 'harbour.png', '--json'], sandbox);
    expect(url.exitCode, url.stderr).toBe(0);
    expect(JSON.parse(url.stdout).images[0].url).toMatch(/^data:image\/png;base64,/);
    expect(readFileSync(join(sandbox.home, 'harbour.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('a prompt no fixture matches: its own words, exit 4, no base-URL hint; a wrong key: exit 3', async () => {
    const unmatched = await svc(['chat', '--no-save', 'something else'], sandbox);
    expect(unmatched.exitCode).toBe(4);
    expect(unmatched.stderr).toContain('No fixture matched');
    expect(unmatched.stderr).not.toContain('check the base URL');
    const refused = await svc(['chat', '--no-save', 'hello'], { ...sandbox, env: { ...sandbox.env, SVC_API_KEY: 'sk-wrong' } });
    expect(refused.exitCode).toBe(3);
  });
});
