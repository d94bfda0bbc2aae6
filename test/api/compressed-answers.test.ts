/**
 * Answers compressed by the service or a proxy (Content-Encoding gzip, deflate, br): chat JSON,
 * chat streams cut at every few bytes, image answers and error bodies are all decoded; an unknown
 * or broken coding is a clear error, not garbage parsed as JSON.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, startScriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.js';
import { png } from '../helpers/fake-images.js';

let server: ScriptedServer;
let sandbox: Sandbox;
let work: string;

beforeAll(async () => {
  server = await startScriptedServer();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-zip', SVC_MAX_RETRIES: '0', SVC_IMAGE_METADATA: 'off' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
  work = mkdtempSync(join(tmpdir(), 'svc-zip-'));
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
  rmSync(work, { recursive: true, force: true });
});

const compressors = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
} as const;

/** `body` compressed, sent in pieces of `pieceSize` bytes so the decoder sees split input. */
function compressed(status: number, contentType: string, encoding: string, bytes: Buffer, pieceSize = 7): Handler {
  return async (_req, res) => {
    res.writeHead(status, { 'content-type': contentType, 'content-encoding': encoding });
    for (let at = 0; at < bytes.length; at += pieceSize) {
      if (!res.write(bytes.subarray(at, at + pieceSize))) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  };
}

const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'unzipped fine' }, finish_reason: 'stop' }] };
const stream = `${chunk('streamed ')}${chunk('and unzipped', 'stop')}data: [DONE]\n\n`;

describe('compressed answers are decoded', () => {
  for (const [name, compress] of Object.entries(compressors)) {
    it(`${name}: a whole chat completion`, async () => {
      server.script(compressed(200, 'application/json', name, compress(Buffer.from(JSON.stringify(completion)))));
      const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('unzipped fine\n');
    });

    it(`${name}: a chat stream arriving a few bytes at a time`, async () => {
      server.script(compressed(200, 'text/event-stream', name, compress(Buffer.from(stream)), 3));
      const result = await runSvc(['chat', '--no-save', 'hi'], sandbox);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('streamed and unzipped\n');
    });
  }

  it('deflate sent raw (without its zlib wrapper), as some servers do', async () => {
    server.script(compressed(200, 'application/json', 'deflate', deflateRawSync(Buffer.from(JSON.stringify(completion)))));
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
    expect(result.stdout).toBe('unzipped fine\n');
  });

  it('two codings, undone in reverse order ("gzip, br")', async () => {
    const body = brotliCompressSync(gzipSync(Buffer.from(JSON.stringify(completion))));
    server.script(compressed(200, 'application/json', 'gzip, br', body));
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
    expect(result.stdout).toBe('unzipped fine\n');
  });

  it('an image answer, decoded to the file byte for byte', async () => {
    const image = Buffer.concat([png(64, 48), Buffer.alloc(200_000, 7)]);
    const answer = { created: 1, data: [{ b64_json: image.toString('base64'), revised_prompt: 'a tidy cat' }] };
    server.script(compressed(200, 'application/json', 'gzip', gzipSync(Buffer.from(JSON.stringify(answer))), 1000));
    const target = join(work, 'cat.png');
    const result = await runSvc(['image', 'a cat', '-o', target], sandbox);
    expect(result.stderr).not.toMatch(/error/);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('a tidy cat\n');
    expect(readFileSync(target).equals(image)).toBe(true);
  });

  it("an error body, so the service's message is shown", async () => {
    const body = gzipSync(Buffer.from(JSON.stringify({ error: { message: 'Request contains disallowed content', type: 'invalid_request_error' } })));
    server.script(compressed(400, 'application/json', 'gzip', body));
    const result = await runSvc(['chat', '--no-save', 'hi'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('error: Request contains disallowed content');
  });
});

describe('compression svc cannot undo', () => {
  it('an unknown coding is named, and nothing is parsed', async () => {
    server.script(compressed(200, 'application/json', 'zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3])));
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('the answer is compressed with "zstd", which svc cannot read (it reads gzip, deflate and br)');
    expect(result.stderr).not.toContain('not JSON');
  });

  it('a broken gzip body is a clear error', async () => {
    server.script(compressed(200, 'application/json', 'gzip', Buffer.from('this was never gzip')));
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/error: the answer could not be decompressed \(gzip\): incorrect header check/);
  });

  it('a broken image answer leaves no file and no temporary file behind', async () => {
    const dir = mkdtempSync(join(work, 'broken-'));
    const whole = gzipSync(Buffer.from(JSON.stringify({ created: 1, data: [{ b64_json: Buffer.alloc(100_000, 1).toString('base64') }] })));
    server.script(compressed(200, 'application/json', 'gzip', whole.subarray(0, whole.length - 20), 1000));
    const result = await runSvc(['image', 'a cat', '-o', join(dir, 'cat.png')], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/could not be decompressed \(gzip\)/);
    expect(existsSync(join(dir, 'cat.png'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
