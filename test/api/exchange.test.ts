/**
 * One request and its answer through undici's dispatch() (src/api/exchange.ts), against a
 * node:http server in this process: the answer as sent, interim answers skipped, aborts before
 * and during the answer (and while queued for a connection), a reader that stops early, a
 * connection cut mid-body, and one listener on a signal however many requests share it.
 */
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exchange } from '../../src/api/exchange.js';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let origin: string;
let route: Route = (_request, response) => response.end('ok');
const seen: string[] = [];
let agent: Agent;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.url ?? '');
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(async () => {
  await agent?.destroy();
  seen.length = 0;
});

function newAgent(connections?: number): Agent {
  agent = new Agent(connections === undefined ? {} : { connections });
  return agent;
}

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const pieces: Uint8Array[] = [];
  for await (const piece of body) pieces.push(piece);
  return Buffer.concat(pieces).toString();
}

const get = (path: string) => ({ origin, path, method: 'GET' as const, headersTimeout: 5000, bodyTimeout: 5000 });

describe('exchange', () => {
  it('gives the status, the headers (lower-case, a repeated one as a list) and the body as sent', async () => {
    route = (request, response) => {
      let received = '';
      request.on('data', (piece: Buffer) => (received += piece.toString()));
      request.on('end', () => {
        response.writeHead(201, [['X-Request-Id', 'req_1'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]);
        response.write('echo: ');
        response.end(received);
      });
    };
    const answer = await exchange(newAgent(), { origin, path: '/post', method: 'POST', body: '{"n":1}', headers: { 'content-type': 'application/json' } });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['x-request-id']).toBe('req_1');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(await text(answer.body)).toBe('echo: {"n":1}');
  });

  it('skips an interim answer (103 Early Hints) and resolves with the final one', async () => {
    route = (_request, response) => {
      response.writeEarlyHints({ link: '</style.css>; rel=preload' }, () => response.end('final'));
    };
    const answer = await exchange(newAgent(), get('/hints'));
    expect(answer.statusCode).toBe(200);
    expect(await text(answer.body)).toBe('final');
  });

  it('an abort before the answer rejects with the signal\'s reason at once', async () => {
    route = () => {}; // never answers
    const stop = new AbortController();
    const pending = exchange(newAgent(), get('/held'), stop.signal);
    await waitFor(() => seen.length === 1);
    stop.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('an abort mid-body fails the reader with the signal\'s reason, and the connection can be used again', async () => {
    route = (request, response) => {
      if (request.url === '/next') return response.end('next');
      response.write('first part;');
    };
    const dispatcher = newAgent(1);
    const stop = new AbortController();
    const answer = await exchange(dispatcher, get('/cut'), stop.signal);
    const first = await answer.body.next();
    expect(Buffer.from(first.value ?? []).toString()).toBe('first part;');
    const reading = answer.body.next();
    stop.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    const next = await exchange(dispatcher, get('/next'));
    expect(await text(next.body)).toBe('next');
  });

  it('an abort while the request waits for a connection rejects it, and it is never sent', async () => {
    let finishFirst: () => void = () => {};
    route = (request, response) => {
      if (request.url === '/first') finishFirst = () => response.end('first');
      else response.end('other');
    };
    const dispatcher = newAgent(1);
    const first = exchange(dispatcher, get('/first'));
    await waitFor(() => seen.length === 1);
    const stop = new AbortController();
    const queued = exchange(dispatcher, get('/queued'), stop.signal);
    stop.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    finishFirst();
    expect(await text((await first).body)).toBe('first');
    const after = await exchange(dispatcher, get('/after'));
    expect(await text(after.body)).toBe('other');
    expect(seen).toEqual(['/first', '/after']);
  });

  it('a reader that stops early aborts the answer (the server sees it closed), and later requests go through', async () => {
    let closed = false;
    route = (request, response) => {
      if (request.url === '/after') return response.end('after');
      response.on('close', () => (closed = true));
      response.write('x'.repeat(1000));
    };
    const dispatcher = newAgent(1);
    const answer = await exchange(dispatcher, get('/endless'));
    for await (const piece of answer.body) {
      expect(piece.length).toBeGreaterThan(0);
      break;
    }
    await waitFor(() => closed);
    const after = await exchange(dispatcher, get('/after'));
    expect(await text(after.body)).toBe('after');
  });

  it('a connection cut mid-body: the reader gets what came, then undici\'s socket error', async () => {
    route = (_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial', () => setTimeout(() => response.socket?.destroy(), 20));
    };
    const answer = await exchange(newAgent(), get('/partial'));
    const read: string[] = [];
    await expect(
      (async () => {
        for await (const piece of answer.body) read.push(Buffer.from(piece).toString());
      })(),
    ).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(read.join('')).toBe('partial');
  });

  it('a refused connection rejects with its code', async () => {
    const closedServer = createServer();
    await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve));
    const port = (closedServer.address() as AddressInfo).port;
    await new Promise((resolve) => closedServer.close(resolve));
    await expect(exchange(newAgent(), { origin: `http://127.0.0.1:${port}`, path: '/', method: 'GET' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('many requests under one signal add one listener to it, and an abort reaches every one in flight', async () => {
    const held: ServerResponse[] = [];
    route = (request, response) => {
      if (request.url?.startsWith('/quick')) response.end('quick');
      else held.push(response);
    };
    const dispatcher = newAgent(8);
    const stop = new AbortController();
    for (let i = 0; i < 10; i++) expect(await text((await exchange(dispatcher, get(`/quick${i}`), stop.signal)).body)).toBe('quick');
    const inFlight = [0, 1, 2, 3].map((i) => exchange(dispatcher, get(`/held${i}`), stop.signal));
    await waitFor(() => held.length === 4);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    for (const pending of inFlight) await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a signal aborted before the call sends nothing', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(exchange(newAgent(), get('/never'), stop.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([]);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
