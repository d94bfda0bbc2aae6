import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions, type RetryNotice } from '../../src/api/client.js';
import { AuthError, NetworkError, RateLimitError, RejectedError, ServerError } from '../../src/core/errors.js';
import { refusedBaseUrl } from '../helpers/refused-url.js';
import { reply, useScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let server: ScriptedServer;
let agent: Agent;
const sleeps: number[] = [];
const notices: RetryNotice[] = [];

function client(overrides: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: server.baseUrl,
    apiKey: 'test-key-0123456789',
    userAgent: 'svc/test',
    timeoutMs: 2000,
    maxRetries: 2,
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    onRetry: (notice) => notices.push(notice),
    ...overrides,
  });
}

async function drain(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts).toString();
}

beforeAll(() => {
  server = scripted.server;
  agent = new Agent({ connect: { timeout: 2000 } });
});
afterAll(async () => {
  await agent.close();
});
afterEach(() => {
  sleeps.length = 0;
  notices.length = 0;
});

describe('ApiClient requests', () => {
  it('posts JSON with bearer auth, content type and user agent under the base path', async () => {
    server.script(reply.json(200, { ok: true }));
    const response = await client({ baseUrl: `${server.baseUrl}/prefix/` }).post('chat/completions', { a: 1 });
    expect(await drain(response.body)).toBe('{"ok":true}');
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/prefix/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer test-key-0123456789');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('svc/test');
    expect(JSON.parse(request?.body ?? '')).toEqual({ a: 1 });
  });
});

describe('ApiClient retries', () => {
  it('retries a 500 and returns the success that follows', async () => {
    server.script(reply.json(500, { error: { message: 'boom' } }), reply.json(200, { fine: 1 }));
    const response = await client().post('x', {});
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([500]);
    expect(notices).toEqual([{ reason: 'HTTP 500', delayMs: 500, retry: 1, maxRetries: 2 }]);
  });

  it('honours retry-after-ms and Retry-After', async () => {
    server.script(reply.json(429, {}, { 'retry-after-ms': '20' }), reply.json(503, {}, { 'retry-after': '1' }), reply.json(200, {}));
    await client().post('x', {});
    expect(sleeps).toEqual([20, 1000]);
  });

  it('gives up on a 429 that never ends after max-retries + 1 attempts (exit 5)', async () => {
    server.script(reply.repeat(reply.json(429, { error: { message: 'slow down' } })));
    const error = await client().post('x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).exitCode).toBe(5);
    expect((error as Error).message).toContain('slow down');
    expect((error as Error).message).toContain('after 2 retries');
    expect(server.requests).toHaveLength(3);
  });

  it('does not sit through a wait over 60 s, and says how long it was', async () => {
    server.script(reply.json(429, { error: { message: 'quota' } }, { 'retry-after': '120' }));
    const error = await client().post('x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('wait 120 s');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('x-should-retry: false stops a retry, true forces one', async () => {
    server.script(reply.json(503, {}, { 'x-should-retry': 'false' }));
    await expect(client().post('x', {})).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    server.script(reply.json(400, {}, { 'x-should-retry': 'true' }), reply.json(200, {}));
    await expect(client().post('x', {})).resolves.toMatchObject({ status: 200 });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a connection reset before the headers', async () => {
    server.script(reply.reset(), reply.json(200, { ok: 1 }));
    const response = await client().post('x', {});
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('a kept-alive connection the server closed as the request went out: retried at once, without a notice', async () => {
    // A server that answers the first request of each connection and drops the connection when
    // the second arrives, as one that closes after every answer without `Connection: close`
    // does to a request sent just before its close is seen.
    const seen = new Map<unknown, number>();
    const closing = createServer((req, res) => {
      const count = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, count);
      if (count > 1) return void req.socket.destroy();
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' }).end('{}'));
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(closing.address() as AddressInfo).port}`;
    const agents = [new Agent({ connections: 1 }), new Agent({ connections: 1 })];
    try {
      const api = client({ baseUrl, dispatcher: agents[0], maxRetries: 1 });
      for (let i = 0; i < 4; i++) expect((await api.post('x', {})).status).toBe(200);
      expect(sleeps).toEqual([]);
      expect(notices).toEqual([]);
      // With no retries allowed, nothing is sent twice: the second request of each connection fails.
      const strict = client({ baseUrl, dispatcher: agents[1], maxRetries: 0 });
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await strict.post('x', {}).then((response) => response.status, (error: unknown) => (error as Error).constructor.name));
      expect(outcomes).toEqual([200, 'NetworkError', 200, 'NetworkError']);
    } finally {
      await Promise.all(agents.map((each) => each.close()));
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('a fresh connection closed before any answer is not sent again without retries allowed', async () => {
    server.script(reply.reset());
    const error = await client({ maxRetries: 0 }).post('x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries connection refused, then reports it as a network error (exit 6)', async () => {
    const error = await client({ baseUrl: await refusedBaseUrl() }).post('x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('connection refused');
    expect(sleeps).toHaveLength(2);
  });

  it('never retries a 400', async () => {
    server.script(reply.json(400, { error: { message: 'Request contains disallowed content' } }));
    const error = await client().post('x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RejectedError);
    expect((error as Error).message).toBe('Request contains disallowed content');
    expect(server.requests).toHaveLength(1);
  });
});

describe('ApiClient errors', () => {
  it('401 is an auth error with the service message and request id', async () => {
    server.script(reply.json(401, { error: { message: 'Invalid API key.' } }, { 'x-request-id': 'req_42' }));
    const error = (await client().post('x', {}).catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain('Invalid API key.');
    expect(error.requestId).toBe('req_42');
    expect(error.status).toBe(401);
  });

  it('an HTML 502 gives the page title and a proxy hint, never the page', async () => {
    server.script(reply.text(502, '<html><head><title>502 Bad Gateway</title></head><body>SECRET-PAGE</body></html>', 'text/html'));
    const error = (await client({ maxRetries: 0 }).post('x', {}).catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain('502 Bad Gateway');
    expect(error.message).not.toContain('SECRET-PAGE');
    expect(error.hint).toContain('proxy');
  });

  it('a 404 without a service error points at the base URL', async () => {
    server.script(reply.text(404, 'Cannot POST /v1/x'));
    const error = (await client().post('x', {}).catch((e: unknown) => e)) as RejectedError;
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toContain('not found');
    expect(error.hint).toContain('base URL');
  });

  it('no headers within the timeout is a network error (exit 6), not retried', async () => {
    server.script(reply.silent());
    const error = await client({ timeoutMs: 200 }).post('x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('silence in the middle of a body is a timeout while reading it', async () => {
    server.script(reply.silentAfterHeaders());
    const response = await client({ timeoutMs: 200 }).post('x', {});
    const error = await drain(response.body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('went silent');
  });

  it('a body that drips slower than the whole timeout but faster than the silence limit is read whole', async () => {
    server.script(reply.sse(['a', 'b', 'c', 'd', 'e'], { gapMs: 100 }));
    const response = await client({ timeoutMs: 300 }).post('x', {});
    expect(await drain(response.body)).toBe('abcde');
  });
});

describe('ApiClient downloads (an image URL the service handed out)', () => {
  it('go through the same request loop: a retry is noticed, and a pause the service asks for is held for every request', async () => {
    server.script(reply.json(503, { error: 'busy' }), (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end('png'));
    const response = await client().get(`${server.baseUrl}/files/a.png`);
    expect(await drain(response.body)).toBe('png');
    expect(notices).toEqual([{ reason: 'HTTP 503', delayMs: 500, retry: 1, maxRetries: 2 }]);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer test-key-0123456789', 'Bearer test-key-0123456789']);

    server.reset();
    notices.length = 0;
    const held: number[] = [];
    const pause = { hold: (ms: number) => held.push(ms), wait: async () => {} };
    server.script(reply.json(429, {}, { 'retry-after-ms': '30' }), (_req, res) => void res.writeHead(200).end('png'));
    await drain((await client({ pause }).get(`${server.baseUrl}/files/b.png`)).body);
    expect(held).toEqual([30]);
    expect(sleeps).toEqual([500]);
  });

  it('a redirect is followed to another origin, which never gets the key', async () => {
    const elsewhere = createServer((request, res) => void res.writeHead(200).end(request.headers.authorization ?? 'no key'));
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const other = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
      server.script((_req, res) => void res.writeHead(302, { location: `${other}/moved.png` }).end());
      expect(await drain((await client().get(`${server.baseUrl}/files/c.png`)).body)).toBe('no key');
      expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key-0123456789');
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });
});
