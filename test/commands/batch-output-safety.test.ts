/**
 * svc batch and what it writes to: a service that repeats the key in its error puts it neither in
 * the results nor in the summary; a results file reached through a symbolic link is locked as
 * the file itself; a device as -o is written to, never read back as an earlier run or locked.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFile } from '../../src/storage/file-lock.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-batch-secret-0123456789';
const scripted = useScriptedServer();
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);
const line = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });
const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: KEY, SVC_MAX_RETRIES: '0' });
  writeFileSync(home('two.jsonl'), `${line('a')}\n${line('b')}\n`);
});
afterAll(() => sandbox.cleanup());

describe('svc batch output', () => {
  it('the key a service repeats in its error is in neither the results nor the summary', async () => {
    const echo = { error: { message: `bad request for key ${KEY} and more`, type: 'invalid_request_error' } };
    scripted.server.script(reply.json(400, echo), reply.json(400, echo));
    const result = await runSvc(['batch', 'two.jsonl', '-o', 'echo.jsonl'], sandbox);
    expect(result.exitCode).toBe(1);
    const written = readFileSync(home('echo.jsonl'), 'utf8');
    expect(written).toContain('bad request for key [redacted] and more');
    expect(written).not.toContain(KEY);
    expect(result.stderr).toContain('[redacted]');
    expect(result.stderr).not.toContain(KEY);
  });

  it('a results file reached through a symbolic link is the same file: locked as it, nothing sent', async () => {
    writeFileSync(home('real.jsonl'), '');
    symlinkSync(home('real.jsonl'), home('link.jsonl'));
    const held = lockFile(home('real.jsonl'));
    try {
      const result = await runSvc(['batch', 'two.jsonl', '-o', 'link.jsonl'], sandbox);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('is being written by another svc batch');
      expect(scripted.server.requests).toHaveLength(0);
    } finally {
      held.release();
    }
  });

  it('-o /dev/null: written to, not read back as an earlier run, and no lock beside it', async () => {
    scripted.server.script(reply.json(200, completion), reply.json(200, completion));
    const result = await runSvc(['batch', 'two.jsonl', '-o', '/dev/null'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^2 requests: 2 succeeded/m);
    expect(existsSync('/dev/null.lock')).toBe(false);
  });
});
