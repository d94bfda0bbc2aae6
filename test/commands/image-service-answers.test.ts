/**
 * `svc image` against answers that are not the service's image result: an HTML page (captive
 * portal, proxy login), an empty body. Clear message, exit 1, nothing written.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { png } from '../helpers/fake-images.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  server = await startScriptedServer();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-image-answers', SVC_MAX_RETRIES: '0', SVC_IMAGE_METADATA: 'off' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});
beforeEach(() => {
  dir = mkdtempSync(join(sandbox.home, 'images-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('svc image and answers that are not an image result', () => {
  it('an HTML page says so, with the base-URL/proxy hint, and writes nothing', async () => {
    server.script(reply.text(200, '<html><head><title>Sign in to GuestNet</title></head><body>…</body></html>', 'text/html'));
    const result = await runSvc(['image', 'a lighthouse', '-o', join(dir, 'out.png')], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('error: an HTML page ("Sign in to GuestNet") came back instead of the service\'s answer');
    expect(result.stderr).toMatch(/check HTTPS_PROXY.*and the base URL/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an error in a 200 answer: a rejected request is exit 4, a failing service exit 1, as for chat', async () => {
    const safety = { error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', code: 'content_policy_violation' } };
    server.script(reply.json(200, safety));
    const rejected = await runSvc(['image', 'a lighthouse', '-o', join(dir, 'out.png')], sandbox);
    expect(rejected.exitCode).toBe(4);
    expect(rejected.stderr).toContain('the service reported an error: Your request was rejected as a result of our safety system.');
    server.script(reply.json(200, { error: { message: 'The engine is overloaded.', type: 'server_error' } }));
    const failed = await runSvc(['image', 'a lighthouse', '-o', join(dir, 'out.png')], sandbox);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('The engine is overloaded.');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an empty 200 says the answer was empty', async () => {
    server.script(reply.text(200, '', 'application/json'));
    const result = await runSvc(['image', 'a lighthouse', '-o', join(dir, 'out.png')], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('the service sent an empty answer');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a byte-order mark before the JSON is skipped', async () => {
    const image = png(16, 16);
    server.script(reply.text(200, `\uFEFF${JSON.stringify({ created: 1, data: [{ b64_json: image.toString('base64'), revised_prompt: 'bom' }] })}`, 'application/json'));
    const result = await runSvc(['image', 'a lighthouse', '-o', join(dir, 'out.png')], sandbox);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'out.png')).equals(image)).toBe(true);
  });

  it('"error": null beside the images is a normal answer', async () => {
    const image = png(32, 32);
    server.script(reply.json(200, { created: 1, error: null, data: [{ b64_json: image.toString('base64'), revised_prompt: 'a lighthouse at dusk' }] }));
    const result = await runSvc(['image', 'a lighthouse', '-o', join(dir, 'out.png')], sandbox);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'out.png')).equals(image)).toBe(true);
  });
});
