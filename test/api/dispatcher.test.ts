/**
 * The dispatcher every request goes through (src/api/dispatcher.ts): through a proxy only when a
 * proxy variable is set in the environment svc was given (not Node's own, which an in-process run
 * does not use); otherwise a plain undici Agent, which reads nothing from the environment per
 * request. (test/e2e/proxy-and-prompt checks a real request through a proxy, end to end.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, EnvHttpProxyAgent } from 'undici';
import { createDispatcher } from '../../src/api/dispatcher.js';

const kinds = async (env: Record<string, string | undefined>) => {
  const dispatcher = await createDispatcher(1000, undefined, env);
  void dispatcher.close();
  return dispatcher instanceof EnvHttpProxyAgent ? 'proxy-aware' : dispatcher instanceof Agent ? 'plain' : 'other';
};

describe('createDispatcher', () => {
  it('is a plain Agent when no proxy variable is set, or they are empty', async () => {
    expect(await kinds({})).toBe('plain');
    expect(await kinds({ http_proxy: '', HTTPS_PROXY: '', NO_PROXY: 'localhost' })).toBe('plain');
    // The lowercase name wins, as in undici: an empty one means no proxy.
    expect(await kinds({ http_proxy: '', HTTP_PROXY: 'http://proxy.example:3128' })).toBe('plain');
  });

  it('honours each proxy variable undici reads, in either case', async () => {
    for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY']) {
      expect(await kinds({ [name]: 'http://proxy.example:3128' }), name).toBe('proxy-aware');
    }
  });
});

describe('the proxy and NO_PROXY come from the environment svc was given', () => {
  let target: Server;
  let proxy: Server;
  const tunnels: string[] = [];
  const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  beforeAll(async () => {
    target = createServer((_req, res) => res.end('direct'));
    // A proxy that notes each tunnel asked for and refuses it.
    proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req, socket) => {
      tunnels.push(req.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await Promise.all([target, proxy].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  });
  afterAll(async () => {
    await Promise.all([target, proxy].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const get = async (env: Record<string, string>) => {
    const dispatcher = await createDispatcher(2000, undefined, env);
    try {
      const { body } = await dispatcher.request({ origin: urlOf(target), path: '/', method: 'GET' });
      return await body.text();
    } catch (error) {
      return `failed: ${(error as Error).message}`;
    } finally {
      await dispatcher.close();
    }
  };

  it('a proxy set only there is used', async () => {
    tunnels.length = 0;
    expect(await get({ HTTP_PROXY: urlOf(proxy) })).toMatch(/^failed/);
    expect(tunnels).toEqual([new URL(urlOf(target)).host]);
  });

  it('NO_PROXY set only there is honoured', async () => {
    tunnels.length = 0;
    expect(await get({ HTTP_PROXY: urlOf(proxy), NO_PROXY: '127.0.0.1' })).toBe('direct');
    expect(tunnels).toEqual([]);
  });
});
