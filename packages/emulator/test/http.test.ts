import { ServedImages } from '../src/extras/openai/served-files.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlacklist } from '../src/core/blacklist.js';
import { createRequestHandler, NO_FAULTS, type Route } from '../src/core/router.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { chatBody, errorShape, send } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['key-one', 'key-two'] });
});
afterAll(() => emu.close());

describe('authentication', () => {
  it('refuses a request without a key, saying how to send one', async () => {
    const answer = await send(emu, { body: chatBody(), key: null });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual(errorShape({ code: 'missing_api_key' }));
    expect(answer.json.error.message).toContain('Authorization: Bearer');
  });

  it.each([['Basic a2V5LW9uZQ=='], ['Bearer'], ['Bearer    '], ['key-one']])('treats the header %j as no key', async (header) => {
    const answer = await send(emu, { body: chatBody(), key: null, headers: { authorization: header } });
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe('missing_api_key');
  });

  it('refuses a wrong key without echoing it back', async () => {
    const answer = await send(emu, { body: chatBody(), key: 'sk-wrong-secret-value' });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual(errorShape({ code: 'invalid_api_key' }));
    expect(answer.text).not.toContain('wrong-secret');
  });

  it('refuses a key that is a prefix or extension of a valid one', async () => {
    expect((await send(emu, { body: chatBody(), key: 'key-on' })).status).toBe(401);
    expect((await send(emu, { body: chatBody(), key: 'key-one1' })).status).toBe(401);
  });

  it('accepts every configured key, with the scheme in any case', async () => {
    expect((await send(emu, { body: chatBody(), key: 'key-one' })).status).toBe(200);
    expect((await send(emu, { body: chatBody(), key: 'key-two' })).status).toBe(200);
    const lower = await send(emu, { body: chatBody(), key: null, headers: { authorization: 'bearer key-two' } });
    expect(lower.status).toBe(200);
  });

  it('checks the key before the body', async () => {
    const answer = await send(emu, { body: '{not json', key: null });
    expect(answer.status).toBe(401);
    const wrongType = await send(emu, { body: 'hello', key: 'nope', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(401);
  });
});

describe('routing', () => {
  it.each([['/v1/chat'], ['/v1/completions'], ['/chat/completions'], ['/v1/chat/completions/'], ['/']])('answers 404 for %s', async (path) => {
    const answer = await send(emu, { path, body: chatBody() });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual(errorShape({ code: 'unknown_url' }));
    expect(answer.json.error.message).toBe(`Invalid URL (POST ${path})`);
  });

  it('ignores a query string when matching the path', async () => {
    const answer = await send(emu, { path: '/v1/chat/completions?x=1', body: chatBody() });
    expect(answer.status).toBe(200);
  });

  it.each([['GET'], ['PUT'], ['DELETE'], ['PATCH']])('answers 405 to %s on the chat endpoint, with Allow', async (method) => {
    const answer = await send(emu, { method, body: method === 'GET' ? undefined : chatBody() });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.json).toEqual(errorShape({ code: 'method_not_allowed' }));
  });

  it('sends a fresh x-request-id on every response, success or error', async () => {
    const answers = await Promise.all([
      send(emu, { body: chatBody() }),
      send(emu, { body: chatBody({ stream: true }) }),
      send(emu, { body: chatBody(), key: null }),
      send(emu, { path: '/nope' }),
      send(emu, { method: 'GET' }),
      send(emu, { body: chatBody({ temperature: 9 }) }),
    ]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const failed = answers.filter((a) => a.status >= 400);
    expect(failed.map((a) => a.status)).toEqual([401, 404, 405, 400]);
    for (const answer of failed) expect(answer.headers.get('content-type')).toBe('application/json');
  });
});

describe('unexpected failures', () => {
  let server: Server;
  let base: string;
  const routes: Route[] = [
    { method: 'POST', path: '/boom', handle: () => { throw new Error('secret detail'); } },
    {
      method: 'POST',
      path: '/boom-mid-stream',
      handle: ({ res }) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: {}\n\n');
        throw new Error('late');
      },
    },
    { method: 'POST', path: '/echo', handle: ({ res, body }) => { res.end(JSON.stringify(body)); } },
  ];

  beforeAll(async () => {
    const config = { apiKeys: ['k'], blacklist: createBlacklist(), delayMs: 0, extraModels: [], faults: NO_FAULTS, images: new ServedImages(), textOnly: false, contextLength: undefined };
    server = createServer(createRequestHandler(routes, config, new Set()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));

  const post = (path: string) => fetch(base + path, {
    method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"a":1}',
  });

  it('turns an exception into a 500 in the error shape, without its detail', async () => {
    const res = await post('/boom');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual(errorShape({ type: 'server_error', code: 'internal_error' }));
    expect(JSON.stringify(body)).not.toContain('secret detail');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('cuts the connection when a route fails after the headers went out', async () => {
    // Whether the headers reached the client first is up to buffering; either way it must fail.
    await expect(post('/boom-mid-stream').then((res) => res.text())).rejects.toThrow();
    expect((await post('/echo')).status).toBe(200);
  });

  it('serves routes added to the table with the parsed body', async () => {
    const res = await post('/echo');
    expect(await res.json()).toEqual({ a: 1 });
  });
});
