/**
 * The dispatcher every request goes through (src/api/dispatcher.ts): through a proxy only when a
 * proxy variable is set; otherwise a plain undici Agent, which reads nothing from the environment
 * per request. (test/e2e/proxy-and-prompt checks a request really goes through the proxy.)
 */
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/api/dispatcher.js';
import { Agent, loadEnvHttpProxyAgent } from '../../src/api/undici-parts.js';

const kinds = async (env: Record<string, string | undefined>) => {
  const dispatcher = await createDispatcher(1000, undefined, env);
  void dispatcher.close();
  return dispatcher instanceof (await loadEnvHttpProxyAgent()) ? 'proxy-aware' : dispatcher instanceof Agent ? 'plain' : 'other';
};

describe('createDispatcher', () => {
  it('is a plain Agent when no proxy variable is set, or they are empty', async () => {
    expect(await kinds({})).toBe('plain');
    expect(await kinds({ http_proxy: '', HTTPS_PROXY: '', NO_PROXY: 'localhost' })).toBe('plain');
  });

  it('honours each proxy variable undici reads, in either case', async () => {
    for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY']) {
      expect(await kinds({ [name]: 'http://proxy.example:3128' }), name).toBe('proxy-aware');
    }
  });
});
