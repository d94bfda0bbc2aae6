/**
 * Answers that never end where they should: an SSE line without a line end, an event without a
 * blank line, a chat answer or an image answer far larger than any real one. Each stops at its
 * bound (src/api/limits.ts) with exit 1 and a clear message. The server here never stops
 * sending, so a test can only finish if svc stops reading.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, startScriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-bounds', SVC_MAX_RETRIES: '0' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

async function send(res: ServerResponse, bytes: Buffer): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(bytes)) {
    // Both listeners go once either fires: the loop waits thousands of times on one response.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.once('drain', done);
      res.once('close', done);
    });
  }
  return !res.destroyed;
}

/** `head`, then `piece` over and over until the client goes away (encoded once: megabytes a write). */
function endless(contentType: string, head: string, piece: string): Handler {
  const headBytes = Buffer.from(head);
  const pieceBytes = Buffer.from(piece);
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    if (!(await send(res, headBytes))) return;
    while (await send(res, pieceBytes));
  };
}

const MIB = 1024 * 1024;

describe('answers that never end stop at a documented bound', () => {
  it('an SSE line that never ends: stopped past 16 MiB', async () => {
    server.script(endless('text/event-stream', `${chunk('before ')}data: {"choices":[{"delta":{"content":"`, 'x'.repeat(MIB)));
    const result = await runSvc(['chat', '--no-save', 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('before \n');
    expect(result.stderr).toContain('error: the service sent a stream line longer than 16 MiB, far beyond any real answer; stopped reading');
  });

  it('an SSE event whose data lines never end: stopped past 16 MiB', async () => {
    server.script(endless('text/event-stream', '', `data: ${'y'.repeat(64 * 1024)}\n`));
    const result = await runSvc(['chat', '--no-save', 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('the service sent a stream event longer than 16 MiB');
  });

  it('a chat JSON answer that never ends: stopped past 64 MiB', async () => {
    server.script(endless('application/json', '{"choices":[{"index":0,"message":{"role":"assistant","content":"', 'z'.repeat(MIB)));
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: the service's answer is larger than 64 MiB, far beyond any real chat answer; stopped reading");
  });

  it('a streamed reply that never finishes: stopped once it holds 64 MiB of text', async () => {
    server.script(endless('text/event-stream', '', chunk('w'.repeat(MIB))));
    const result = await runSvc(['chat', '--no-save', '--json', 'hi'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('the reply grew past 64 MiB, far beyond any real one; stopped reading');
  });

  it('an image answer whose text besides the images never ends: stopped past 64 MiB, nothing left on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bounds-'));
    try {
      server.script(endless('application/json', '{"created":1,"data":[{"revised_prompt":"', 'p'.repeat(MIB)));
      const result = await runSvc(['image', 'a cat', '-o', join(dir, 'cat.png')], sandbox);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('the image answer carries more than 64 MiB besides its images');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
