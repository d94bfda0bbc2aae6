/**
 * The order of svc batch's results, as the README says it: the order the requests finish, not the
 * input's; and the README's jq line puts them back in the input's order, each request's latest line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);

const completion = (content: string) => ({ id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
const chatLine = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });
const idOf = (body: string) => (JSON.parse(body) as { messages: Array<{ content: string }> }).messages.at(-1)!.content;
const idsIn = (text: string) => text.trim().split('\n').map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);

/** Resolves once `path` holds a line for `id`: the slow answer waits for the quick one's line, so the order is known, not timed. */
async function lineWritten(path: string, id: string): Promise<void> {
  for (;;) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      // Not made yet.
    }
    if (text.includes(`"custom_id":"${id}"`)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'order-key-0123', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox.cleanup());

describe('the order of the results', () => {
  it('is the order the requests finish: a quick one overtakes a slow one; the README jq line gives the input order back', async () => {
    writeFileSync(home('requests.jsonl'), ['slow', 'quick'].map(chatLine).join('\n'));
    const byId: Handler = async (req, res, body) => {
      if (idOf(body) === 'slow') await lineWritten(home('results.jsonl'), 'quick');
      await reply.json(200, completion(`answer to ${idOf(body)}`))(req, res, body);
    };
    scripted.server.script(byId, byId);
    const result = await runSvc(['batch', 'requests.jsonl', '-o', 'results.jsonl', '--concurrency', '2'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(idsIn(readFileSync(home('results.jsonl'), 'utf8'))).toEqual(['quick', 'slow']);
    const sorted = await execa('jq', ['-c', '-n', '--slurpfile', 'out', 'results.jsonl', 'INDEX($out[]; .custom_id) as $by | inputs | $by[.custom_id] // empty', 'requests.jsonl'], { cwd: sandbox.home });
    expect(idsIn(sorted.stdout)).toEqual(['slow', 'quick']);
  });

  it('a rerun with --retry-failed appends; the jq line keeps each request its latest line', async () => {
    writeFileSync(home('again.jsonl'), ['a', 'b'].map(chatLine).join('\n'));
    const failA: Handler = (req, res, body) => (idOf(body) === 'a' ? reply.json(500, { error: { message: 'down' } }) : reply.json(200, completion('fine')))(req, res, body);
    scripted.server.script(failA, failA);
    expect((await runSvc(['batch', 'again.jsonl', '-o', 'again.out.jsonl', '--concurrency', '1'], sandbox)).exitCode).toBe(1);
    scripted.server.script(reply.json(200, completion('fine now')));
    expect((await runSvc(['batch', 'again.jsonl', '-o', 'again.out.jsonl', '--retry-failed'], sandbox)).exitCode).toBe(0);
    expect(idsIn(readFileSync(home('again.out.jsonl'), 'utf8'))).toEqual(['a', 'b', 'a']);
    const sorted = await execa('jq', ['-c', '-n', '--slurpfile', 'out', 'again.out.jsonl', 'INDEX($out[]; .custom_id) as $by | inputs | $by[.custom_id] // empty', 'again.jsonl'], { cwd: sandbox.home });
    const lines = sorted.stdout.split('\n').map((line) => JSON.parse(line) as { custom_id: string; response: { status_code: number } });
    expect(lines.map((line) => [line.custom_id, line.response.status_code])).toEqual([
      ['a', 200],
      ['b', 200],
    ]);
  });
});
