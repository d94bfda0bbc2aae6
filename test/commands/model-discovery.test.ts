/**
 * The chat model when none is set (issue 36, item 6): svc asks the service's GET /v1/models once
 * per base URL (kept in the models cache) and sends the one model a service lists (llama-server's
 * case, played here by a small node:http server that echoes the model it is sent, as
 * llama-server does); `svc-pro` when the service lists it, lists several, or has no model list;
 * a refusal of that default says to set a model and lists the service's. A model named anywhere
 * (-m, SVC_MODEL, the stored setting) asks nothing. `/model NAME` warns when the kept list of
 * that service lacks NAME.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedModelIds, cachedModels, keepModelIds } from '../../src/storage/models-cache.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { sessionPlan } from '../helpers/session-plan.js';

const KEY = 'model-discovery-key-0123';

interface ModelServer {
  baseUrl: string;
  /** How many times GET /v1/models was asked. */
  listAsks: number;
  /** The model of each chat request, in order. */
  chatModels: string[];
  close(): Promise<void>;
}

/**
 * A service with `models` in its list ('none': no GET /v1/models at all, a 404 as llama.cpp's
 * server gives for an endpoint it lacks). Chats answer with the model they were sent, unless
 * `refuse` says the model is unknown (OpenAI's 404 model_not_found).
 */
async function modelServer(models: string[] | 'none', refuse: (model: string) => boolean = () => false): Promise<ModelServer> {
  const state = { listAsks: 0, chatModels: [] as string[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET' && req.url === '/v1/models') {
        state.listAsks += 1;
        if (models === 'none') return json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
        return json(200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1, owned_by: 'llamacpp' })) });
      }
      const { model } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string };
      state.chatModels.push(model);
      if (refuse(model)) return json(404, { error: { message: `The model '${model}' does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found', param: 'model' } });
      json(200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: `hello from ${model}` }, finish_reason: 'stop' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get listAsks() {
      return state.listAsks;
    },
    chatModels: state.chatModels,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let sandbox: Sandbox;
const servers: ModelServer[] = [];
const serve = async (models: string[] | 'none', refuse?: (model: string) => boolean): Promise<ModelServer> => {
  const server = await modelServer(models, refuse);
  servers.push(server);
  return server;
};
const chat = (server: ModelServer, ...words: string[]) => runSvc(['chat', '--no-stream', '--no-save', '--base-url', server.baseUrl, ...words], sandbox);

beforeEach(() => {
  sandbox = makeSandbox({ SVC_API_KEY: KEY, SVC_MAX_RETRIES: '0' });
});
afterEach(async () => {
  sandbox.cleanup();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('no model set: the service settles it', () => {
  it('a service that lists one model (llama-server) gets that one; its list is asked once', async () => {
    const llama = await serve(['qwen2.5-7b-instruct-q4_k_m.gguf']);
    const first = await chat(llama, 'hello');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe('hello from qwen2.5-7b-instruct-q4_k_m.gguf\n');
    expect((await chat(llama, 'again')).exitCode).toBe(0);
    expect(llama.chatModels).toEqual(['qwen2.5-7b-instruct-q4_k_m.gguf', 'qwen2.5-7b-instruct-q4_k_m.gguf']);
    expect(llama.listAsks).toBe(1);
    expect(cachedModelIds(join(sandbox.env.XDG_CACHE_HOME!, 'svc'), llama.baseUrl)).toEqual(['qwen2.5-7b-instruct-q4_k_m.gguf']);
  });

  it('a service that lists svc-pro among others, or has no model list, gets svc-pro, as before', async () => {
    const listing = await serve(['svc-mini', 'svc-pro']);
    const bare = await serve('none');
    for (const server of [listing, bare]) {
      expect((await chat(server, 'hello')).stdout).toBe('hello from svc-pro\n');
      expect((await chat(server, 'hello')).stdout).toBe('hello from svc-pro\n');
      expect(server.listAsks).toBe(1);
    }
    expect(cachedModels(join(sandbox.env.XDG_CACHE_HOME!, 'svc'), bare.baseUrl)).toMatchObject({ ids: null });
  });

  it('a service with several models that refuses svc-pro: its words, and a hint to set a model with its list', async () => {
    const hub = await serve(['gpt-4o-mini', 'gpt-4o', 'o3-mini'], (model) => model === 'svc-pro');
    const refused = await chat(hub, 'hello');
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toBe(
      "svc: error: The model 'svc-pro' does not exist or you do not have access to it. (HTTP 404)\n" +
        '  no chat model is set, so svc sent svc-pro; the service lists gpt-4o-mini, gpt-4o, o3-mini: choose one with -m ID, SVC_MODEL or `svc config set model ID`\n',
    );
    const chosen = await chat(hub, '-m', 'gpt-4o-mini', 'hello');
    expect(chosen.stdout).toBe('hello from gpt-4o-mini\n');
  });

  it('svc batch chooses the same way: the one listed model for every chat line, asked once and only after the input is checked', async () => {
    const llama = await serve(['tiny-llama']);
    writeFileSync(join(sandbox.home, 'bad.jsonl'), '{"not": "a request"}\n');
    const refused = await runSvc(['batch', '--base-url', llama.baseUrl, 'bad.jsonl'], sandbox, { cwd: sandbox.home });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('bad.jsonl: 1 bad line; nothing was sent');
    expect(llama.listAsks).toBe(0);
    writeFileSync(join(sandbox.home, 'questions.txt'), 'one\ntwo\nthree\n');
    const batch = await runSvc(['batch', '--base-url', llama.baseUrl, '--prompts', 'questions.txt'], sandbox, { cwd: sandbox.home });
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(llama.chatModels).toEqual(['tiny-llama', 'tiny-llama', 'tiny-llama']);
    expect(batch.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { response: { body: { model: string } } }).response.body.model)).toEqual(['tiny-llama', 'tiny-llama', 'tiny-llama']);
    expect((await runSvc(['batch', '--base-url', llama.baseUrl, '--prompts', 'questions.txt', '-m', 'named'], sandbox, { cwd: sandbox.home })).exitCode).toBe(0);
    expect(llama.chatModels.slice(3)).toEqual(['named', 'named', 'named']);
    expect(llama.listAsks).toBe(1);
  });

  it('a model named anywhere asks nothing: -m, SVC_MODEL, the stored setting', async () => {
    const llama = await serve(['only-one']);
    expect((await chat(llama, '-m', 'picked', 'hello')).stdout).toBe('hello from picked\n');
    expect((await runSvc(['chat', '--no-stream', '--no-save', '--base-url', llama.baseUrl, 'hello'], sandbox, { env: { SVC_MODEL: 'from-env' } })).stdout).toBe('hello from from-env\n');
    expect((await runSvc(['config', 'set', 'model', 'stored-one'], sandbox)).exitCode).toBe(0);
    expect((await chat(llama, 'hello')).stdout).toBe('hello from stored-one\n');
    expect(llama.listAsks).toBe(0);
  });

  it('a dry run asks nothing: it uses the kept list if there is one', async () => {
    const llama = await serve(['only-one']);
    const unknown = await chat(llama, '--dry-run', 'hello');
    expect(unknown.stdout).toContain('"model":"svc-pro"');
    expect(llama.listAsks).toBe(0);
    await chat(llama, 'hello');
    const known = await chat(llama, '--dry-run', 'hello');
    expect(known.stdout).toContain('"model":"only-one"');
    expect(llama.listAsks).toBe(1);
  });

  it('each base URL keeps its own list', async () => {
    const [alpha, beta] = [await serve(['alpha']), await serve(['beta'])];
    for (const server of [alpha, beta, alpha, beta]) expect((await chat(server, 'hi')).exitCode).toBe(0);
    expect([alpha.chatModels, beta.chatModels]).toEqual([['alpha', 'alpha'], ['beta', 'beta']]);
    expect([alpha.listAsks, beta.listAsks]).toEqual([1, 1]);
    const listed = await runSvc(['models', '--cached', '--base-url', beta.baseUrl], sandbox);
    expect(listed.stdout).toBe('beta\n');
  });

  it('a service that cannot be reached is said once, as a network error (exit 6)', async () => {
    const result = await runSvc(['chat', '--no-save', '--base-url', 'http://127.0.0.1:9', 'hello'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toMatch(/^svc: error: could not connect to http:\/\/127\.0\.0\.1:9/);
  });
});

describe('the models cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-models-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps one entry per base URL: ids, or null for no model list; without a URL, the latest', () => {
    keepModelIds(dir, 'http://a', ['one', 'two'], new Date('2026-01-01T00:00:00Z'));
    keepModelIds(dir, 'http://b', null, new Date('2026-01-02T00:00:00Z'));
    keepModelIds(dir, 'http://c', ['three'], new Date('2026-01-03T00:00:00Z'));
    expect(cachedModelIds(dir, 'http://a')).toEqual(['one', 'two']);
    expect(cachedModels(dir, 'http://b')).toEqual({ ids: null, at: '2026-01-02T00:00:00.000Z' });
    expect(cachedModels(dir, 'http://nowhere')).toBeUndefined();
    expect(cachedModelIds(dir, undefined)).toEqual(['three']);
  });

  it('reads the one-service file of earlier versions; a damaged file is no list', () => {
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ baseUrl: 'http://old', ids: ['kept'], at: '2025-05-05T00:00:00.000Z' }));
    expect(cachedModelIds(dir, 'http://old')).toEqual(['kept']);
    keepModelIds(dir, 'http://new', ['fresh']);
    expect(cachedModelIds(dir, 'http://old')).toEqual(['kept']);
    writeFileSync(join(dir, 'models.json'), '{"servers": ');
    expect(cachedModels(dir, 'http://old')).toBeUndefined();
  });

  it('forgets the services asked longest ago beyond 32', () => {
    for (let n = 0; n < 40; n++) keepModelIds(dir, `http://s${n}`, [`m${n}`], new Date(Date.UTC(2026, 0, 1, 0, n)));
    const kept = JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')) as { servers: Record<string, unknown> };
    expect(Object.keys(kept.servers)).toHaveLength(32);
    expect(cachedModelIds(dir, 'http://s39')).toEqual(['m39']);
    expect(cachedModelIds(dir, 'http://s7')).toEqual([]);
  });
});

describe('the session', () => {
  const emu = useEmulatorSandbox('session-models-key-0123');

  it('/model NAME warns when the service did not list NAME when last asked; a listed one does not', async () => {
    expect((await runSvc(['models'], emu.sandbox)).exitCode).toBe(0);
    const { stderr } = await runScriptedSession(emu.sandbox, ['/model gpt-9', '/model svc-mini'], { plan: sessionPlan({ continueLatest: false, sessionName: 'models', save: false }) });
    expect(stderr).toContain('(model: gpt-9, from the next message)\nsvc: warning: the service did not list gpt-9 when last asked (3 models; `svc models` shows them); if it refuses it, the session goes back to svc-pro\n');
    expect(stderr).toContain('(model: svc-mini, from the next message)\n');
    expect(stderr).not.toContain('did not list svc-mini');
  });

  it('--usage prints the counts after each reply', async () => {
    const { stderr } = await runScriptedSession(emu.sandbox, ['hello', 'and again'], { plan: { ...sessionPlan({ continueLatest: false, sessionName: 'usage', save: false }), usage: true } });
    expect(stderr.match(/^tokens: \d+ prompt \+ \d+ completion = \d+ total$/gm)).toHaveLength(2);
  });
});
