/**
 * A failure that points at the base URL names where that URL came from: the flag, the variable or
 * the stored setting. A user who typed --base-url must not be sent to `svc config get baseUrl`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkError } from '../../src/api/transport-errors.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox({ SVC_API_KEY: 'env-key-0123456789' });
  mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc'), { recursive: true });
  writeFileSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'config.json'), JSON.stringify({ baseUrl: `${scripted.server.baseUrl}/stored` }));
});
afterAll(() => sandbox.cleanup());

describe('a 404 that says why', () => {
  const env = () => ({ SVC_BASE_URL: `${scripted.server.baseUrl}/env` });
  it("a mock server's own refusal (aimock's no_fixture_match): its words, exit 4, no base-URL hint", async () => {
    scripted.server.script(reply.json(404, { error: { message: 'No fixture matched', type: 'invalid_request_error', param: null, code: 'no_fixture_match' } }));
    const result = await runSvc(['chat', '--no-save', '--no-stream', '--max-retries', '0', 'hi'], sandbox, { env: env() });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('error: No fixture matched (HTTP 404)');
    expect(result.stderr).not.toContain('check the base URL');
  });

  it.each([
    ["OpenAI's invalid URL", { error: { message: 'Invalid URL (POST /env/v1/chat/completions)', type: 'invalid_request_error', param: null, code: null } }],
    ["llama.cpp's missing endpoint", { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }],
  ])('%s still points at the base URL', async (_name, body) => {
    scripted.server.script(reply.json(404, body));
    const result = await runSvc(['chat', '--no-save', '--no-stream', '--max-retries', '0', 'hi'], sandbox, { env: env() });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('check the base URL');
  });
});

describe('an image request to a server that only chats', () => {
  it("llama.cpp's 404 for the image endpoint: the base-URL hint, and that the service may make no images", async () => {
    scripted.server.script(reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
    const result = await runSvc(['image', '--max-retries', '0', 'a cat'], sandbox, { env: { SVC_BASE_URL: `${scripted.server.baseUrl}/env` } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`not found: ${scripted.server.baseUrl}/env/v1/images/generations (File Not Found)`);
    expect(result.stderr).toContain("check the base URL, set by SVC_BASE_URL: svc appends /v1/... to it; or this service makes no images (llama.cpp's server, for one, only chats)");
  });

  it('a chat request to the same 404 is not told about images', async () => {
    scripted.server.script(reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
    const result = await runSvc(['chat', '--no-save', '--no-stream', '--max-retries', '0', 'hi'], sandbox, { env: { SVC_BASE_URL: `${scripted.server.baseUrl}/env` } });
    expect(result.stderr).toContain('check the base URL');
    expect(result.stderr).not.toContain('makes no images');
  });
});

describe('the base-URL hint of a 404', () => {
  it.each([
    ['--base-url', 'flag', 'set by --base-url'],
    ['SVC_BASE_URL', 'env', 'set by SVC_BASE_URL'],
    ['the stored setting', 'stored', 'set by the stored setting (svc config get baseUrl)'],
  ] as const)('names %s', async (_name, origin, words) => {
    const server = scripted.server;
    // A 404 with no error object from the service: the URL is wrong, so the hint is about it.
    server.script(reply.text(404, 'no such page'));
    const args = origin === 'flag' ? ['--base-url', `${server.baseUrl}/flag`] : [];
    const env = origin === 'env' ? { SVC_BASE_URL: `${server.baseUrl}/env` } : {};
    const result = await runSvc(['chat', '--no-save', '--no-stream', '--max-retries', '0', ...args, 'hi'], sandbox, { env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`check the base URL, ${words}: svc appends /v1/... to it`);
    if (origin !== 'stored') expect(result.stderr).not.toContain('svc config get');
    // The request went where that origin said, so the hint names the setting that was used.
    expect(server.requests.map((request) => request.url)).toEqual([`/${origin}/v1/chat/completions`]);
  });
});

describe('the base-URL hint of a refused connection', () => {
  it('names where the base URL came from', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const error = networkError(refused, { url: 'http://127.0.0.1:9/v1/chat/completions', timeoutMs: 1000, midResponse: false, baseUrlOrigin: '--base-url' });
    expect(error.hint).toBe('is the service running there? check the base URL, set by --base-url');
  });
});

describe('the base-URL hint of an HTML page in place of the answer', () => {
  it('names --base-url, not the stored setting, when the flag set it', async () => {
    const server = scripted.server;
    server.script(reply.text(200, '<html><head><title>Hotel Wi-Fi login</title></head></html>', 'text/html'));
    const result = await runSvc(['chat', '--no-save', '--max-retries', '0', '--base-url', `${server.baseUrl}/flag`, 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('an HTML page ("Hotel Wi-Fi login") came back');
    expect(result.stderr).toContain('check HTTPS_PROXY/NO_PROXY and the base URL, set by --base-url');
    expect(result.stderr).not.toContain('svc config get');
  });
});
