/**
 * `svc batch -o` an existing file continues it: custom_ids with a successful line are skipped,
 * failed ones are redone only with --retry-failed, and a last line cut by a crash is skipped and
 * followed by a fresh line, never glued to the next record.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);
const completion = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
const chatLine = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });
const success = (id: string) => JSON.stringify({ id: `batch_req_${id}`, custom_id: id, response: { status_code: 200, request_id: 'r', body: completion }, error: null });
const failure = (id: string) => JSON.stringify({ id: `batch_req_${id}`, custom_id: id, response: { status_code: 400, request_id: 'r', body: { error: { message: 'no' } } }, error: null });
/** One success per request the run is expected to send: a request more, or one fewer, fails the test. */
const succeedTimes = (count: number) => scripted.server.script(...Array.from({ length: count }, () => reply.json(200, completion)));
/** Check the last run used its script whole, then forget its requests before the next run. */
const nextRun = () => {
  scripted.server.assertAllUsed();
  scripted.server.reset();
};
const askedFor = () => scripted.server.requests.map((request) => (JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages[0]!.content).sort();

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'resume-batch-key-0123' });
  writeFileSync(home('in.jsonl'), ['a', 'b', 'c', 'd'].map(chatLine).join('\n'));
});
afterAll(() => sandbox.cleanup());

describe('svc batch resume', () => {
  it('skips what succeeded, leaves what failed without --retry-failed (exit 1), redoes it with it', async () => {
    writeFileSync(home('out1.jsonl'), `${success('a')}\n${failure('b')}\n`);
    succeedTimes(2);
    const first = await runSvc(['batch', 'in.jsonl', '-o', 'out1.jsonl'], sandbox);
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain('2 already done (1 of them failed: --retry-failed redoes those), 2 to go');
    expect(askedFor()).toEqual(['c', 'd']);

    nextRun();
    const again = await runSvc(['batch', 'in.jsonl', '-o', 'out1.jsonl'], sandbox);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('4 already done (1 of them failed: --retry-failed redoes those), 0 to go');
    expect(scripted.server.requests).toHaveLength(0);

    succeedTimes(1);
    const retried = await runSvc(['batch', 'in.jsonl', '-o', 'out1.jsonl', '--retry-failed'], sandbox);
    expect(retried.exitCode).toBe(0);
    expect(askedFor()).toEqual(['b']);
    const lines = readFileSync(home('out1.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; response: { status_code: number } });
    // Append-only: the failed line stays, and the later success for the same id follows it.
    expect(lines.map((line) => `${line.custom_id}:${line.response.status_code}`)).toEqual(['a:200', 'b:400', 'c:200', 'd:200', 'b:200']);

    nextRun();
    const done = await runSvc(['batch', 'in.jsonl', '-o', 'out1.jsonl'], sandbox);
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toBe('4 already done, 0 to go\n');
    expect(scripted.server.requests).toHaveLength(0);
  });

  it('a line cut by a crash is skipped and named; the next record starts on a fresh line', async () => {
    const cut = success('b').slice(0, 40);
    writeFileSync(home('out2.jsonl'), `${success('a')}\n${cut}`);
    succeedTimes(3);
    const result = await runSvc(['batch', 'in.jsonl', '-o', 'out2.jsonl'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('out2.jsonl: line 2 skipped (not complete JSON)');
    expect(result.stderr).toContain('1 already done, 3 to go');
    expect(askedFor()).toEqual(['b', 'c', 'd']);
    const lines = readFileSync(home('out2.jsonl'), 'utf8').split('\n');
    expect(lines[1]).toBe(cut);
    const complete = lines.slice(2).filter(Boolean).map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);
    expect(complete.sort()).toEqual(['b', 'c', 'd']);
  });

  it('refuses -o naming the input itself (it would be appended to), nothing sent', async () => {
    const result = await runSvc(['batch', 'in.jsonl', '-o', './in.jsonl'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is the input file itself');
    expect(scripted.server.requests).toHaveLength(0);
  });
});
