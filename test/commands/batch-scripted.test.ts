/**
 * `svc batch` in-process against a scripted server, for what the emulator cannot show: how many
 * requests are in flight, a 429 pausing every worker, 5xx and cut connections retried per request,
 * a refused key stopping everything, the bodies actually sent (flag defaults against a request's
 * own values), and a bad input listed whole with nothing sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

/** A line of JSON as the test reads it, navigated freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Line = Record<string, any>;
// Each test scripts the answers its run needs; an unused one or an extra request fails it.
const scripted = useScriptedServer();
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);

const completion = (content: string) => ({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } });
const chatLine = (id: string, body: object = {}) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }], ...body } });
const writeInput = (name: string, count: number) => writeFileSync(home(name), Array.from({ length: count }, (_, index) => chatLine(`q${index}`)).join('\n'));
const records = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Line);
const sentBodies = () => scripted.server.requests.map((request) => JSON.parse(request.body) as Line);
/** Which request a body is: its last user message is its custom_id in these tests. */
const idOf = (body: string) => (JSON.parse(body) as { messages: Array<{ content: string }> }).messages.at(-1)!.content;

/** `count` copies of one answer: as many as the run must send, in whatever order they come. */
const times = (count: number, handler: () => Handler) => Array.from({ length: count }, handler);

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'scripted-batch-key-0123' });
});
afterAll(() => sandbox.cleanup());

describe('svc batch: how requests are sent', () => {
  it('keeps exactly --concurrency requests in flight, never more', async () => {
    writeInput('bound.jsonl', 20);
    let inFlight = 0;
    let most = 0;
    let arrived = 0;
    const waiting: Array<() => void> = [];
    // 20 requests, all answered alike: the one handler repeats.
    scripted.server.script(reply.repeat(async (_req, res) => {
      inFlight += 1;
      arrived += 1;
      most = Math.max(most, inFlight);
      // Hold each answer until the pool is full (or no more can come), so the count is exact.
      if (inFlight >= 3 || arrived === 20) for (const release of waiting.splice(0)) release();
      else await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('ok')));
    }));
    const result = await runSvc(['batch', 'bound.jsonl', '--concurrency', '3'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(most).toBe(3);
    expect(records(result.stdout)).toHaveLength(20);
    expect(scripted.server.requests).toHaveLength(20);
  });

  it('a 429 pauses every worker for the wait it names, then all go on', async () => {
    writeInput('limited.jsonl', 40);
    // The custom_id of each request, in the order they arrived.
    const arrivals: string[] = [];
    // 41 requests (q0 twice): one handler, repeated, that limits the first q0.
    scripted.server.script(reply.repeat(async (_req, res, body) => {
      const id = idOf(body);
      arrivals.push(id);
      if (id === 'q0' && arrivals.indexOf('q0') === arrivals.length - 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '400' }).end(JSON.stringify({ error: { message: 'slow down' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('ok')));
    }));
    // Waits take their time here (by default a test's retries go at once): a request that waited
    // on its own, rather than in the shared pause, would let the other workers run on meanwhile.
    const retryWait = (ms: number, signal: AbortSignal | undefined) => sleep(ms, undefined, signal ? { signal } : {});
    const result = await runSvc(['batch', 'limited.jsonl', '--concurrency', '4'], sandbox, { retryWait });
    expect(result.exitCode).toBe(0);
    expect(records(result.stdout)).toHaveLength(40);
    // Told by order, not by the clock: between the 429 and q0's retry (which comes when the wait
    // is over) each of the three other workers can send at most three requests: one on its way
    // when the 429 left, one while svc was still reading the 429 (server and client share this
    // process's event loop, so a round trip takes as many turns as that read), and one as the
    // pause ends (the same timer wakes all four). Without a shared pause the other three would
    // send the whole rest of the file in that time.
    const limited = arrivals.indexOf('q0');
    const retried = arrivals.indexOf('q0', limited + 1);
    expect(retried).toBeGreaterThan(limited);
    expect(retried - limited - 1).toBeLessThanOrEqual(9);
    expect(scripted.server.requests.filter((request) => idOf(request.body) === 'q0')).toHaveLength(2);
    expect(scripted.server.requests).toHaveLength(41);
  });

  it('a 5xx is retried for that request alone; a connection cut after the retries is an error record', async () => {
    writeFileSync(home('faults.jsonl'), [chatLine('flaky'), chatLine('dead'), chatLine('fine')].join('\n'));
    let flakyTries = 0;
    // The three run concurrently, so one answer picks by request; five requests in all: flaky
    // twice (500, then 200), dead twice (cut, cut), fine once.
    const byRequest: Handler = (req, res, body) => {
      const id = idOf(body);
      if (id === 'dead') return reply.reset()(req, res, body);
      if (id === 'flaky' && flakyTries++ === 0) return reply.json(500, { error: { message: 'oops' } })(req, res, body);
      return reply.json(200, completion(id), { 'x-request-id': `req-${id}` })(req, res, body);
    };
    scripted.server.script(...times(5, () => byRequest));
    const result = await runSvc(['batch', 'faults.jsonl', '--max-retries', '1'], sandbox);
    expect(result.exitCode).toBe(1);
    const out = Object.fromEntries(records(result.stdout).map((record) => [record.custom_id, record]));
    expect(out.flaky.response).toEqual({ status_code: 200, request_id: 'req-flaky', body: expect.objectContaining({ object: 'chat.completion' }) });
    expect(out.fine.response.status_code).toBe(200);
    expect(out.dead.response).toBeNull();
    expect(out.dead.error).toEqual({ code: 'network_error', message: expect.stringContaining('was closed before any answer') });
    expect(scripted.server.requests.filter((request) => idOf(request.body) === 'dead')).toHaveLength(2);
    expect(result.stderr).toContain('3 requests: 2 succeeded, 1 failed');
  });

  it('a reply cut mid-stream, or ended by an error event, is recorded as the error that cut it', async () => {
    writeFileSync(home('cut.jsonl'), [chatLine('cut'), chatLine('refused')].join('\n'));
    const byRequest: Handler = (req, res, body) =>
      idOf(body) === 'cut'
        ? reply.sse([chunk('half a ')])(req, res, body)
        : reply.sse([chunk('so far'), 'data: {"error":{"message":"overloaded","code":"overloaded"}}\n\n'])(req, res, body);
    scripted.server.script(...times(2, () => byRequest));
    const result = await runSvc(['batch', 'cut.jsonl', '--concurrency', '1'], sandbox);
    expect(result.exitCode).toBe(1);
    const out = Object.fromEntries(records(result.stdout).map((record) => [record.custom_id, record]));
    expect(out.cut.error).toEqual({ code: 'network_error', message: expect.stringContaining('stream interrupted') });
    expect(out.refused.error).toEqual({ code: 'overloaded', message: expect.stringContaining('overloaded') });
    expect(result.stderr).toContain('2 requests: 0 succeeded, 2 failed');
  });

  it('a refused key stops at once: exit 3, nothing recorded for it, no further request sent', async () => {
    writeInput('refused.jsonl', 10);
    // Both workers' first requests arrive before the 401 is sent (so the count is exact); the
    // second is never answered: svc must give it up, and send nothing after (the strict script
    // has no answer for a third request).
    let secondArrived: () => void = () => {};
    const bothSent = new Promise<void>((resolve) => (secondArrived = resolve));
    const refuse = reply.json(401, { error: { message: 'bad key' } });
    scripted.server.script(
      async (req, res, body) => {
        await bothSent;
        await refuse(req, res, body);
      },
      Object.assign(() => secondArrived(), { label: 'the second request, never answered' }),
    );
    const result = await runSvc(['batch', 'refused.jsonl', '-o', 'refused.out.jsonl', '--concurrency', '2'], sandbox);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('the service rejected the API key: bad key');
    expect(scripted.server.requests).toHaveLength(2);
    expect(readFileSync(home('refused.out.jsonl'), 'utf8')).toBe('');
  });
});

describe('svc batch: what is sent', () => {
  it('flags give defaults; a request’s own fields win; -s only where the request has no system message', async () => {
    writeFileSync(
      home('defaults.jsonl'),
      [
        chatLine('own', { model: 'own-model', temperature: 0.2, stop: ['x', 'y'] }),
        chatLine('bare'),
        JSON.stringify({ custom_id: 'sys', method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'system', content: 'mine' }, { role: 'user', content: 'sys' }], temperature: null } }),
      ].join('\n'),
    );
    scripted.server.script(...times(3, () => reply.json(200, completion('ok'))));
    const result = await runSvc(['batch', 'defaults.jsonl', '-m', 'flag-model', '-t', '1.5', '--max-tokens', '50', '-s', 'be brief', '--stop', 'END', '--user', 'u1'], sandbox);
    expect(result.exitCode).toBe(0);
    const sent = Object.fromEntries(sentBodies().map((body) => [body.messages.at(-1).content, body]));
    expect(sent.own).toEqual({ model: 'own-model', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'own' }], temperature: 0.2, max_tokens: 50, stop: ['x', 'y'], user: 'u1' });
    expect(sent.bare).toEqual({ model: 'flag-model', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'bare' }], temperature: 1.5, max_tokens: 50, stop: 'END', user: 'u1' });
    // null means "not set": the flag's value applies; the request's own system message stays alone.
    expect(sent.sys).toMatchObject({ temperature: 1.5, messages: [{ role: 'system', content: 'mine' }, { role: 'user', content: 'sys' }] });
    for (const body of sentBodies()) expect(body.stream).toBeUndefined();
  });

  it('OpenAI fields an ordinary Batch file carries are passed on as given, for chat and for images', async () => {
    const { png } = await import('../helpers/fake-images.js');
    const chatExtras = { max_completion_tokens: 30, response_format: { type: 'json_object' }, seed: 4, n: 2, metadata: { run: 'x' }, logprobs: true };
    const imageExtras = { size: '1024x1024', quality: 'high', response_format: 'b64_json' };
    writeFileSync(
      home('openai.jsonl'),
      [
        chatLine('chat-extras', chatExtras),
        JSON.stringify({ custom_id: 'img-extras', method: 'POST', url: '/v1/images/generations', body: { prompt: 'c', ...imageExtras } }),
      ].join('\n'),
    );
    scripted.server.script(reply.json(200, completion('ok')), reply.json(200, { created: 1, data: [{ b64_json: png(4, 4).toString('base64') }] }));
    const result = await runSvc(['batch', 'openai.jsonl', '-o', 'openai.out.jsonl', '--concurrency', '1'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const [chat, image] = sentBodies();
    expect(chat).toMatchObject(chatExtras);
    expect(image).toMatchObject({ prompt: 'c', ...imageExtras });
  });

  it('image flags give defaults too, and the body’s own aspect and format win', async () => {
    const { png } = await import('../helpers/fake-images.js');
    scripted.server.script(...times(2, () => reply.json(200, { created: 1, data: [{ b64_json: png(4, 4).toString('base64'), revised_prompt: 'r' }] })));
    writeFileSync(
      home('img-defaults.jsonl'),
      [
        JSON.stringify({ custom_id: 'own-img', method: 'POST', url: '/v1/images/generations', body: { prompt: 'a', aspect_ratio: '1:1', output_format: 'png' } }),
        JSON.stringify({ custom_id: 'bare-img', method: 'POST', url: '/v1/images/generations', body: { prompt: 'b' } }),
      ].join('\n'),
    );
    const result = await runSvc(['batch', 'img-defaults.jsonl', '--aspect', '16:9', '--seed', '7', '--negative', 'people', '-m', 'chat-only'], sandbox, { env: { SVC_IMAGE_MODEL: 'img-model' } });
    expect(result.exitCode, result.stderr).toBe(0);
    const sent = Object.fromEntries(sentBodies().map((body) => [body.prompt, body]));
    expect(sent.a).toEqual({ prompt: 'a', model: 'img-model', aspect_ratio: '1:1', output_format: 'png', seed: 7, negative_prompt: 'people' });
    expect(sent.b).toEqual({ prompt: 'b', model: 'img-model', aspect_ratio: '16:9', output_format: 'png', seed: 7, negative_prompt: 'people' });
  });

  it('a bad input is listed whole, line by line with the reason, and nothing is sent (exit 2)', async () => {
    writeFileSync(
      home('bad.jsonl'),
      [
        chatLine('fine'),
        '{"custom_id": "cut", "method": "POST", "url": "/v1/chat',
        chatLine('hot', { temperature: 3 }),
        chatLine('fine'),
        chatLine('streamy', { stream: true }),
        JSON.stringify({ custom_id: 'img', method: 'POST', url: '/v1/images/generations', body: { prompt: 'x', aspect_ratio: '2:1' } }),
        JSON.stringify({ custom_id: 'x', method: 'GET', url: '/v1/chat/completions', body: {} }),
        chatLine('extra', { temprature: 0.2 }),
        chatLine('many', { stop: ['a', 'b', 'c', 'd', 'e'] }),
      ].join('\n'),
    );
    const result = await runSvc(['batch', 'bad.jsonl'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(scripted.server.requests).toHaveLength(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('bad.jsonl: 8 bad lines; nothing was sent');
    expect(result.stderr).toContain('line 2: not valid JSON');
    expect(result.stderr).toContain('line 3: body.temperature must be a number from 0 to 2; got 3');
    expect(result.stderr).toContain('line 4: custom_id "fine" is already used on line 1');
    expect(result.stderr).toContain('line 5: body.stream must be false or absent');
    expect(result.stderr).toContain('line 6: body.aspect_ratio must be one of 1:1, 16:9, 9:16, 4:3, 3:4, 21:9; got "2:1"');
    expect(result.stderr).toContain('line 7: method must be "POST"');
    expect(result.stderr).toContain('line 8: body.temprature is not a field svc sends');
    expect(result.stderr).toContain('line 9: body.stop has 5 entries; the service accepts at most 4 stop sequences');
  });

  it('bad flags are usage errors before the input is read', async () => {
    for (const [args, message] of [
      [['batch', 'none.jsonl', '--concurrency', '0'], '--concurrency must be a whole number from 1 to 64'],
      [['batch', 'none.jsonl', '-t', '9'], '--temperature must be a number from 0 to 2'],
      [['batch', '--prompts', 'p.txt', '--aspect', '1:1'], '--aspect is for image requests'],
      [['batch'], 'no input'],
      [['batch', 'none.jsonl'], 'none.jsonl: no such file'],
    ] as const) {
      const result = await runSvc([...args], sandbox);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(scripted.server.requests).toHaveLength(0);
  });
});
