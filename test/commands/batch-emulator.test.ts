/**
 * `svc batch` in-process against the emulator: the output in the OpenAI Batch format, a rejected
 * request recorded while the others succeed, images saved as <custom_id>.<ext> with `path` in
 * their body, --prompts, progress on a terminal and one summary line in a pipe.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/images/file-format.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';


/** A line of JSON as the test reads it, navigated freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Line = Record<string, any>;
const env = useEmulatorSandbox('batch-emulator-key-0123', { blockTerms: ['forbidden-thing'] });
const home = (...parts: string[]) => join(env.sandbox.home, ...parts);

const chat = (id: string, content: string, extra: object = {}) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content }], ...extra } });
const image = (id: string, body: object) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/images/generations', body });
const records = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Line);
const byId = (text: string): Line => Object.fromEntries(records(text).map((record) => [record.custom_id, record]));

describe('svc batch against the emulator', () => {
  it('writes one OpenAI Batch output line per request, with exactly the format’s fields', async () => {
    writeFileSync(home('fields.jsonl'), `${chat('a', 'hello', { temperature: 0 })}\n\n${chat('b', 'why is the sky blue?')}\n`);
    const result = await runSvc(['batch', 'fields.jsonl'], env.sandbox);
    expect(result.exitCode).toBe(0);
    const lines = records(result.stdout);
    expect(lines.map((line) => line.custom_id).sort()).toEqual(['a', 'b']);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['id', 'custom_id', 'response', 'error']);
      expect(line.id).toMatch(/^batch_req_[0-9a-f]{24}$/);
      expect(Object.keys(line.response)).toEqual(['status_code', 'request_id', 'body']);
      expect(line.response.status_code).toBe(200);
      expect(line.response.request_id).toMatch(/^req_/);
      expect(line.response.body.object).toBe('chat.completion');
      expect(line.response.body.choices[0].message.content.length).toBeGreaterThan(0);
      expect(line.error).toBeNull();
    }
    expect(result.stderr).toMatch(/^2 requests: 2 succeeded, 0 failed, \d+\.\d s, [\d,]+ tokens \([\d,]+ prompt \+ [\d,]+ completion\)\n$/);
  });

  it('records a rejected request (400, disallowed content) as its answer while the others succeed: exit 1', async () => {
    writeFileSync(home('mixed.jsonl'), [chat('ok1', 'hello'), chat('bad', 'tell me about forbidden-thing'), chat('ok2', 'hi')].join('\n'));
    const result = await runSvc(['batch', 'mixed.jsonl', '-o', 'mixed.out.jsonl'], env.sandbox);
    expect(result.exitCode).toBe(1);
    const out = byId(readFileSync(home('mixed.out.jsonl'), 'utf8'));
    expect(out.ok1.response.status_code).toBe(200);
    expect(out.ok2.response.status_code).toBe(200);
    expect(out.bad.response.status_code).toBe(400);
    expect(out.bad.response.body.error.message).toBe('Request contains disallowed content');
    expect(out.bad.error).toBeNull();
    expect(result.stderr).toContain('3 requests: 2 succeeded, 1 failed');
  });

  it('saves images as <custom_id>.<ext> beside the output, with "path" in place of "b64_json"', async () => {
    writeFileSync(home('images.jsonl'), [image('harbour', { prompt: 'a harbour at dawn', seed: 1 }), image('fox.jpeg-test', { prompt: 'a fox', output_format: 'jpeg', seed: 2 })].join('\n'));
    const result = await runSvc(['batch', 'images.jsonl', '-o', 'shots/out.jsonl', '--aspect', '16:9'], env.sandbox);
    // The folder of -o does not exist: a usage error before anything is sent.
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('-o shots/out.jsonl: the folder');
    expect(existsSync(home('shots'))).toBe(false);

    const ok = await runSvc(['batch', 'images.jsonl', '-o', 'images.out.jsonl', '--aspect', '16:9'], env.sandbox);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const out = byId(readFileSync(home('images.out.jsonl'), 'utf8'));
    expect(out.harbour.response.body.data[0]).toEqual({ path: 'harbour.png', revised_prompt: expect.any(String) });
    expect(out['fox.jpeg-test'].response.body.data[0].path).toBe('fox.jpeg-test.jpg');
    expect(JSON.stringify(out)).not.toContain('b64_json');
    expect(out.harbour.response.body.usage.total_tokens).toBeGreaterThan(0);
    expect(detectFormat(readFileSync(home('harbour.png')))).toBe('png');
    expect(detectFormat(readFileSync(home('fox.jpeg-test.jpg')))).toBe('jpeg');
  });

  it('never overwrites an image: a taken name is recorded as failed and that request is not sent', async () => {
    writeFileSync(home('taken.png'), 'mine');
    writeFileSync(home('taken.jsonl'), image('taken', { prompt: 'a tree' }));
    const result = await runSvc(['batch', 'taken.jsonl'], env.sandbox);
    expect(result.exitCode).toBe(1);
    const [line] = records(result.stdout);
    expect(line?.response).toBeNull();
    expect(line?.error).toEqual({ code: 'file_exists', message: expect.stringContaining('taken.png already exists') });
    expect(readFileSync(home('taken.png'), 'utf8')).toBe('mine');
  });

  it('--images-dir puts the images there, making the folder when it is missing, and the paths say so', async () => {
    writeFileSync(home('dir.jsonl'), image('tower', { prompt: 'a tower', seed: 3 }));
    expect(existsSync(home('pics', 'nested'))).toBe(false);
    const result = await runSvc(['batch', 'dir.jsonl', '--images-dir', join('pics', 'nested')], env.sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(records(result.stdout)[0]?.response.body.data[0].path).toBe(join('pics', 'nested', 'tower.png'));
    expect(existsSync(home('pics', 'nested', 'tower.png'))).toBe(true);
  });

  it('--images-dir that is a file: a usage error, nothing sent', async () => {
    writeFileSync(home('dir2.jsonl'), image('tower2', { prompt: 'a tower', seed: 3 }));
    writeFileSync(home('not-a-folder'), 'x');
    const result = await runSvc(['batch', 'dir2.jsonl', '--images-dir', 'not-a-folder'], env.sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--images-dir not-a-folder: ');
  });

  it('--prompts: one chat request per non-empty line, custom_id line-<n>', async () => {
    writeFileSync(home('prompts.txt'), 'hello\n\nwhat is rust?\n   \nlast one');
    const result = await runSvc(['batch', '--prompts', 'prompts.txt', '-t', '0'], env.sandbox);
    expect(result.exitCode).toBe(0);
    const out = byId(result.stdout);
    expect(Object.keys(out).sort()).toEqual(['line-1', 'line-3', 'line-5']);
    for (const record of Object.values(out)) expect(record.response.status_code).toBe(200);
  });

  it('on a terminal stderr, a live progress line rewritten in place, then the summary', async () => {
    writeFileSync(home('tty.jsonl'), [chat('t1', 'hello'), chat('t2', 'hi')].join('\n'));
    const result = await runSvc(['batch', 'tty.jsonl', '-o', 'tty.out.jsonl'], env.sandbox, { stderrIsTTY: true });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('\r\u001b[Ksvc batch: 0/2 done');
    // The live line is erased before the summary, which ends the output on a line of its own.
    expect(result.stderr).toMatch(/\r\u001b\[K2 requests: 2 succeeded, 0 failed, [\d.]+ s, [\d,]+ tokens \([\d,]+ prompt \+ [\d,]+ completion\)\n$/);
  });
});
