/**
 * Pass-through fields (issue 24, item 2): `--param KEY=VALUE` on chat, image and batch adds a
 * field to the request body (VALUE as JSON, else a string; dotted keys make objects); a field an
 * option sets is a usage error naming the option; the fields show in --dry-run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_OWNED, parseParams, withParams } from '../../src/core/request-params.js';
import { UsageError } from '../../src/core/errors.js';
import { roleFilePath } from '../../src/roles/store.js';
import { png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'sk-params-key-0123', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox.cleanup());

const sent = () => JSON.parse(scripted.server.requests.at(-1)!.body) as Record<string, unknown>;

describe('parseParams and withParams', () => {
  it('JSON when it is JSON, else a string; dotted keys make objects, merged', () => {
    expect(parseParams(['n=2', 'flag=true', 'name=bob', 'list=[1,2]', 'response_format.type=json_object', 'response_format.strict=false', 'empty='], {})).toEqual({
      n: 2, flag: true, name: 'bob', list: [1, 2], response_format: { type: 'json_object', strict: false }, empty: '',
    });
  });

  it.each([['no equals sign', 'seed'], ['a bad key', '.x=1'], ['a key starting with a digit', '1a=2']])('refuses %s', (_what, value) => {
    expect(() => parseParams([value], {})).toThrow(UsageError);
  });

  it('refuses a field an option sets, naming the option', () => {
    expect(() => parseParams(['temperature=1'], CHAT_OWNED)).toThrow('--param temperature: temperature is set with -t/--temperature');
    expect(() => parseParams(['stream_options.include_usage=false'], CHAT_OWNED)).toThrow('set with --no-stream');
  });

  it('merges objects field by field; keepExisting lets the body win', () => {
    expect(withParams({ a: 1, o: { x: 1 } }, { a: 2, o: { y: 2 } })).toEqual({ a: 2, o: { x: 1, y: 2 } });
    expect(withParams({ a: 1, o: { x: 1 } }, { a: 2, b: 3, o: { x: 9, y: 2 } }, true)).toEqual({ a: 1, b: 3, o: { x: 1, y: 2 } });
  });
});

describe('svc chat --param', () => {
  it('adds the fields to the body sent', async () => {
    scripted.server.script(reply.sse([chunk('ok', 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', '--param', 'seed=7', '--param', 'response_format.type=json_object', '--param', 'logit_bias={"50256": -100}', 'hi'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent()).toMatchObject({ seed: 7, response_format: { type: 'json_object' }, logit_bias: { '50256': -100 }, messages: [{ role: 'user', content: 'hi' }] });
  });

  it('a field an option sets: exit 2 naming it, nothing sent', async () => {
    scripted.server.script();
    const result = await runSvc(['chat', '--no-save', '--param', 'model=x', 'hi'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--param model: model is set with -m/--model');
  });

  it('shows in --dry-run', async () => {
    const result = await runSvc(['chat', '--dry-run', '--param', 'n=3', 'hi'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"n":3');
  });
});

describe('svc image --param', () => {
  it('adds the fields; an option-owned one (--aspect) is refused', async () => {
    scripted.server.script(reply.json(200, { created: 1, data: [{ b64_json: png(4, 4).toString('base64'), revised_prompt: 'r' }] }));
    const result = await runSvc(['image', 'a fox', '-o', 'fox.png', '--param', 'quality=hd', '--param', 'style=natural'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent()).toMatchObject({ prompt: 'a fox', quality: 'hd', style: 'natural' });
    const refused = await runSvc(['image', 'a fox', '--param', 'aspect_ratio=16:9'], sandbox);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('set with --aspect');
  });
});

describe('svc batch --param', () => {
  it('goes into every body, beside the fields the line sets', async () => {
    const line = (id: string, body: object) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }], ...body } });
    writeFileSync(join(sandbox.home, 'params.jsonl'), [line('plain', {}), line('own', { temperature: 0.5 })].join('\n'));
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }] };
    scripted.server.script(reply.json(200, completion), reply.json(200, completion));
    const result = await runSvc(['batch', 'params.jsonl', '--concurrency', '1', '--param', 'service_tier=flex', '--param', 'metadata.run=nightly'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const bodies = scripted.server.requests.map((request) => JSON.parse(request.body) as Record<string, unknown>);
    expect(bodies.map((body) => [body.service_tier, body.temperature])).toEqual([['flex', undefined], ['flex', 0.5]]);
    expect(bodies.every((body) => (body.metadata as { run: string }).run === 'nightly')).toBe(true);
  });
});

describe('params kept in roles and profiles', () => {
  it('a role file\'s params line is sent; --param wins field by field; roles set --param writes it', async () => {
    const set = await runSvc(['roles', 'set', 'tiered', '--system', 'Be brief.', '--param', 'service_tier=flex', '--param', 'metadata.team=docs'], sandbox);
    expect(set.exitCode, set.stderr).toBe(0);
    const shown = await runSvc(['roles', 'show', 'tiered'], sandbox);
    expect(shown.stdout).toContain('params: {"service_tier":"flex","metadata":{"team":"docs"}}');
    scripted.server.script(reply.sse([chunk('ok', 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', '--role', 'tiered', '--param', 'metadata.run=7', 'hi'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent()).toMatchObject({ service_tier: 'flex', metadata: { team: 'docs', run: 7 } });
  });

  it('a role file whose params name an option-owned field is reported, not used', async () => {
    writeFileSync(roleFilePath(sandbox.env, 'hot'), '---\nparams: {"temperature": 2}\n---\nBe hot.\n');
    const result = await runSvc(['chat', '--no-save', '--role', 'hot', 'hi'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('temperature is set with -t/--temperature');
  });

  it("a profile's params setting goes with every chat request, under the role's and --param's", async () => {
    const refused = await runSvc(['config', 'set', '--profile', 'tier', 'params', '{"model": "x"}'], sandbox);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('model is set with -m/--model');
    const notObject = await runSvc(['config', 'set', '--profile', 'tier', 'params', '[1]'], sandbox);
    expect(notObject.exitCode).toBe(2);
    const set = await runSvc(['config', 'set', '--profile', 'tier', 'params', '{"service_tier": "auto", "cache_prompt": true}'], sandbox);
    expect(set.exitCode, set.stderr).toBe(0);
    scripted.server.script(reply.sse([chunk('ok', 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', '--profile', 'tier', '--param', 'service_tier=flex', 'hi'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent()).toMatchObject({ service_tier: 'flex', cache_prompt: true });
    const other = await runSvc(['chat', '--dry-run', 'hi'], sandbox);
    expect(other.stdout).not.toContain('cache_prompt');
  });
});
