/**
 * Models (issue 23, items 3 and 6): the emulator's GET /v1/models and /v1/models/{id} (its chat
 * and image models, and extra ones from --model), checked with the official SDK too; `svc models`
 * as a table, ids, JSON, kept for completion of -m; a server without a model list says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { bashComplete } from '../helpers/bash-complete.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-models-key-0123456789';
let emu: RunningEmulator;
let sandbox: Sandbox;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: [KEY], models: ['gpt-4o-mini', 'openai/gpt-4o'] });
  sandbox = makeSandbox({ SVC_BASE_URL: emu.baseUrl, SVC_API_KEY: KEY });
});
afterAll(async () => {
  await emu.close();
  sandbox.cleanup();
});

const get = (path: string, key = KEY) => fetch(`${emu.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('the emulator serves its models', () => {
  it('GET /v1/models lists the chat and image models and the extra ones', async () => {
    const answer = await get('/v1/models');
    expect(answer.status).toBe(200);
    const list = (await answer.json()) as { object: string; data: Array<{ id: string; object: string; owned_by: string; created: number }> };
    expect(list.object).toBe('list');
    expect(list.data.map((model) => model.id)).toEqual(['svc-pro', 'svc-mini', 'svc-vision', 'gpt-4o-mini', 'openai/gpt-4o']);
    expect(list.data.every((model) => model.object === 'model' && model.owned_by === 'svc-emulator' && Number.isInteger(model.created))).toBe(true);
  });

  it('GET /v1/models/{id} answers one, slashes included; an unknown id is 404 model_not_found', async () => {
    expect(await (await get('/v1/models/svc-pro')).json()).toMatchObject({ id: 'svc-pro', object: 'model' });
    expect(await (await get('/v1/models/openai/gpt-4o')).json()).toMatchObject({ id: 'openai/gpt-4o' });
    const missing = await get('/v1/models/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: expect.objectContaining({ code: 'model_not_found', param: 'model' }) });
  });

  it('needs the key, as every endpoint does', async () => {
    expect((await get('/v1/models', 'sk-wrong')).status).toBe(401);
  });

  it('the official SDK lists and retrieves them, and chats with an extra model', async () => {
    const client = new OpenAI({ baseURL: `${emu.baseUrl}/v1`, apiKey: KEY, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-4o-mini');
    expect((await client.models.retrieve('svc-vision')).id).toBe('svc-vision');
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.model).toBe('gpt-4o-mini');
  });
});

describe('svc models', () => {
  it('in a pipe: one id a line; on a terminal: a table; --json: the answer', async () => {
    const piped = await runSvc(['models'], sandbox);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout).toBe('svc-pro\nsvc-mini\nsvc-vision\ngpt-4o-mini\nopenai/gpt-4o\n');
    const shown = await runSvc(['models'], sandbox, { stdoutIsTTY: true });
    expect(shown.stdout.split('\n')[0]).toMatch(/^MODEL +OWNED BY +CREATED$/);
    expect(shown.stdout).toMatch(/^svc-vision +svc-emulator +2025-01-01$/m);
    const json = await runSvc(['models', '--json'], sandbox);
    expect(JSON.parse(json.stdout)).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: 'svc-mini' })]) });
  });

  it('keeps the ids for completion: --cached prints them without asking, and -m <Tab> offers them', async () => {
    expect((await runSvc(['models'], sandbox)).exitCode).toBe(0);
    const kept = JSON.parse(readFileSync(join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'models.json'), 'utf8')) as { servers: Record<string, { ids: string[] }> };
    expect(kept.servers[emu.baseUrl]).toMatchObject({ ids: ['svc-pro', 'svc-mini', 'svc-vision', 'gpt-4o-mini', 'openai/gpt-4o'] });
    // --cached asks nothing: pointed at a dead port, it still answers from the cache of that URL only.
    const cached = await runSvc(['models', '--cached'], sandbox);
    expect(cached.stdout).toBe('svc-pro\nsvc-mini\nsvc-vision\ngpt-4o-mini\nopenai/gpt-4o\n');
    const elsewhere = await runSvc(['models', '--cached', '--base-url', 'http://127.0.0.1:9'], sandbox);
    expect(elsewhere.stdout).toBe('');
    expect(elsewhere.exitCode).toBe(0);
    const offered = await bashComplete('svc chat -m gpt', sandbox.env, fileURLToPath(new URL('../..', import.meta.url)));
    expect(offered).toEqual(['gpt-4o-mini']);
  });

  describe('against a server without a model list', () => {
    let server: ScriptedServer;
    beforeAll(async () => {
      server = await startScriptedServer();
    });
    afterAll(() => server.close());

    it('one clear line, exit 4', async () => {
      server.script(reply.modelList(reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } })));
      const result = await runSvc(['models', '--base-url', server.baseUrl, '--max-retries', '0'], sandbox);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toBe(`svc: error: the service at ${server.baseUrl} offers no model list (GET /v1/models) (HTTP 404)\n`);
      expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
    });

    it('a login page in place of the list is named as such, with the proxy hint, exit 1, nothing cached', async () => {
      server.script(reply.modelList(reply.text(200, '<html><head><title>Login required</title></head><body>…</body></html>', 'text/html')));
      const result = await runSvc(['models', '--base-url', server.baseUrl, '--max-retries', '0'], sandbox);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('svc: error: an HTML page ("Login required") came back instead of the service\'s answer');
      expect(result.stderr).toMatch(/check HTTPS_PROXY\/NO_PROXY and the base URL/);
      const cached = await runSvc(['models', '--cached', '--base-url', server.baseUrl], sandbox);
      expect(cached.stdout).toBe('');
    });
  });
});
