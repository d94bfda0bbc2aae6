/**
 * Images that come back as a URL (issue 21, item 4): many OpenAI-compatible servers answer
 * `data[0].url` instead of `b64_json`. svc downloads it with the same timeout and retries, sends
 * the key only to the service's own origin, saves it the same way (whole or not at all, never
 * over a file, the bytes checked), and --json keeps the URL. Two scripted servers: the service,
 * and an image host elsewhere.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, useScriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-image-url-key-0123456789';
const IMAGE = png(40, 30);
const service = useScriptedServer();
let host: ScriptedServer;
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);

beforeAll(async () => {
  host = await startScriptedServer();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_BASE_URL: service.server.baseUrl, SVC_API_KEY: KEY, SVC_MAX_RETRIES: '1', SVC_IMAGE_METADATA: 'off' });
});
afterAll(async () => {
  await host.close();
  sandbox.cleanup();
});

const answerWithUrl = (url: string, extra: Record<string, unknown> = {}): Handler => reply.json(200, { created: 7, data: [{ url, revised_prompt: 'a fox, revised', ...extra }] });
const imageBytes = (bytes: Buffer = IMAGE): Handler => (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(bytes);
const pngs = () => readdirSync(sandbox.home).filter((name) => name.endsWith('.png') || name.endsWith('.part'));

describe('svc image with an image URL', () => {
  it('on another host: downloaded without the key, saved, the revised prompt printed', async () => {
    service.server.script(answerWithUrl(`${host.baseUrl}/files/fox.png?signature=secret-token`));
    host.script(imageBytes());
    const result = await runSvc(['image', 'a fox', '-o', 'fox.png'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('a fox, revised\n');
    expect(readFileSync(home('fox.png')).equals(IMAGE)).toBe(true);
    expect(host.requests).toHaveLength(1);
    expect(host.requests[0]!.method).toBe('GET');
    expect(host.requests[0]!.url).toBe('/files/fox.png?signature=secret-token');
    expect(host.requests[0]!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(host.requests[0]!.headers)).not.toContain(KEY);
    host.reset();
  });

  it("on the service's own origin: the key goes with it (the service guards its own files)", async () => {
    service.server.script(answerWithUrl(`${service.server.baseUrl}/v1/files/own.png`), imageBytes());
    const result = await runSvc(['image', 'a fox', '-o', 'own.png'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(service.server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a redirect to another host is followed, and the key is not carried there', async () => {
    service.server.script(answerWithUrl(`${service.server.baseUrl}/v1/files/moved.png`), (_req, res) => void res.writeHead(302, { location: `${host.baseUrl}/cdn/moved.png` }).end());
    host.script(imageBytes());
    const result = await runSvc(['image', 'a fox', '-o', 'moved.png'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(home('moved.png')).equals(IMAGE)).toBe(true);
    expect(host.requests[0]!.headers.authorization).toBeUndefined();
    host.reset();
  });

  it('--json keeps the URL beside the path', async () => {
    const url = `${host.baseUrl}/files/kept.png`;
    service.server.script(answerWithUrl(url));
    host.script(imageBytes());
    const result = await runSvc(['image', 'a fox', '-o', 'kept.png', '--json'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ created: 7, images: [{ path: home('kept.png'), revised_prompt: 'a fox, revised', bytes: IMAGE.length, seed: null, width: 40, height: 30, url }], usage: null });
    host.reset();
  });

  it('a 5xx from the image host is retried; a 404 is exit 1 with the URL (no query) and a hint, nothing saved', async () => {
    service.server.script(answerWithUrl(`${host.baseUrl}/files/flaky.png`));
    host.script(reply.json(503, { error: 'busy' }), imageBytes());
    expect((await runSvc(['image', 'a fox', '-o', 'flaky.png'], sandbox)).exitCode).toBe(0);
    host.reset();

    service.server.script(answerWithUrl(`${host.baseUrl}/files/gone.png?token=abc`));
    host.script(reply.json(404, { error: { message: 'expired' } }));
    const result = await runSvc(['image', 'a fox', '-o', 'gone.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`could not download the image from ${host.baseUrl}/files/gone.png: HTTP 404 (expired)`);
    expect(result.stderr).toContain('image URLs often expire');
    expect(result.stderr).not.toContain('token=abc');
    expect(existsSync(home('gone.png'))).toBe(false);
    expect(pngs().filter((name) => name.endsWith('.part'))).toEqual([]);
    host.reset();
  });

  it("a gzip-compressed error page from the image host still gives the host's message", async () => {
    service.server.script(answerWithUrl(`${host.baseUrl}/files/denied.png`));
    const page = gzipSync(Buffer.from(JSON.stringify({ error: { message: 'signature does not match' } })));
    host.script((_req, res) => void res.writeHead(403, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(page));
    const result = await runSvc(['image', 'a fox', '-o', 'denied.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('HTTP 403 (signature does not match)');
    expect(existsSync(home('denied.png'))).toBe(false);
    host.reset();
  });

  it('bytes that are not the format asked for are refused, as for b64_json', async () => {
    service.server.script(answerWithUrl(`${host.baseUrl}/files/page.png`));
    host.script((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'));
    const result = await runSvc(['image', 'a fox', '-o', 'page.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/not the png asked for; nothing was written/);
    expect(existsSync(home('page.png'))).toBe(false);
    host.reset();
  });

  it('a data: URL is decoded in place', async () => {
    service.server.script(answerWithUrl(`data:image/png;base64,${IMAGE.toString('base64')}`));
    const result = await runSvc(['image', 'a fox', '-o', 'inline.png'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(home('inline.png')).equals(IMAGE)).toBe(true);
  });

  it('a file: URL is not fetched, and the message shows it as it is', async () => {
    service.server.script(answerWithUrl('file:///etc/passwd'));
    const result = await runSvc(['image', 'a fox', '-o', 'local.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('the image URL file:///etc/passwd is not http or https; svc does not fetch it');
  });

  it('an entry with neither b64_json nor url: a clear error, exit 1', async () => {
    service.server.script(reply.json(200, { created: 1, data: [{ revised_prompt: 'nothing' }] }));
    const result = await runSvc(['image', 'a fox', '-o', 'none.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('image 1 of the answer has neither b64_json nor url');
  });
});

describe('svc batch with an image URL', () => {
  it('saves it under the custom_id; the record keeps the url and gives the path', async () => {
    writeFileSync(home('img.jsonl'), JSON.stringify({ custom_id: 'harbour', method: 'POST', url: '/v1/images/generations', body: { prompt: 'a harbour' } }));
    const url = `${host.baseUrl}/files/harbour.png`;
    service.server.script(answerWithUrl(url));
    host.script(imageBytes());
    const result = await runSvc(['batch', 'img.jsonl'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const record = JSON.parse(result.stdout) as { response: { body: { data: Array<Record<string, unknown>> } } };
    expect(record.response.body.data[0]).toEqual({ url, revised_prompt: 'a fox, revised', path: 'harbour.png' });
    expect(readFileSync(home('harbour.png')).equals(IMAGE)).toBe(true);
    expect(host.requests[0]!.headers.authorization).toBeUndefined();
    host.reset();
  });
});
