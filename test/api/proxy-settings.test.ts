/**
 * The proxy variables (src/api/proxy-settings.ts): read as undici reads them, a bare host:port
 * taken as an http proxy (as curl takes it), a value that is no proxy address refused naming the
 * variable and never quoting it, and which requests go through the proxy (NO_PROXY as undici
 * has it), so a failure to reach the proxy can be blamed on the proxy.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { proxyFor, readProxySettings } from '../../src/api/proxy-settings.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

describe('readProxySettings', () => {
  it('takes a bare host:port as an http proxy, and shows it without credentials', () => {
    expect(readProxySettings({ https_proxy: 'proxy.corp:3128' }).https).toEqual({ url: 'http://proxy.corp:3128', shown: 'http://proxy.corp:3128', variable: 'https_proxy' });
    expect(readProxySettings({ HTTP_PROXY: 'http://me:s3cret@proxy.corp:8080' }).http).toEqual({ url: 'http://me:s3cret@proxy.corp:8080', shown: 'http://proxy.corp:8080', variable: 'HTTP_PROXY' });
  });

  it('reads the lowercase name first (empty means none), and https falls back to the http proxy, as undici does', () => {
    expect(readProxySettings({ http_proxy: '', HTTP_PROXY: 'http://p:1' }).http).toBeUndefined();
    expect(readProxySettings({ HTTP_PROXY: 'http://p:1' }).https?.variable).toBe('HTTP_PROXY');
    expect(readProxySettings({}).http).toBeUndefined();
  });

  it('refuses a value that is no proxy address, naming the variable and not quoting the value', () => {
    for (const [env, words] of [
      [{ HTTPS_PROXY: 'http://[oops:s3cret' }, 'HTTPS_PROXY is not a proxy address svc can read'],
      [{ http_proxy: 'socks5://u:s3cret@host:1080' }, 'http_proxy names a socks5 proxy'],
    ] as const) {
      let thrown: unknown;
      try {
        readProxySettings(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).toContain(words);
      expect((thrown as Error).message).not.toContain('s3cret');
    }
  });
});

describe('proxyFor: which requests go through the proxy', () => {
  const settings = (noProxy: string) => readProxySettings({ HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://q:2', NO_PROXY: noProxy });
  it('by scheme, and not for a host, a subdomain or a host:port NO_PROXY names; * for every host', () => {
    expect(proxyFor(settings(''), 'https://api.example.com/v1')?.shown).toBe('http://q:2');
    expect(proxyFor(settings(''), 'http://api.example.com/v1')?.shown).toBe('http://p:1');
    expect(proxyFor(settings('example.com'), 'https://api.example.com/v1')).toBeUndefined();
    expect(proxyFor(settings('.example.com, other'), 'https://example.com/v1')).toBeUndefined();
    expect(proxyFor(settings('api.example.com:8443'), 'https://api.example.com/v1')?.shown).toBe('http://q:2');
    expect(proxyFor(settings('api.example.com:443'), 'https://api.example.com/v1')).toBeUndefined();
    expect(proxyFor(settings('*'), 'http://anything/v1')).toBeUndefined();
    expect(proxyFor(settings('notexample.com'), 'https://example.com/v1')?.shown).toBe('http://q:2');
  });
});

describe('svc with a proxy it cannot reach', () => {
  let sandbox: Sandbox;
  let closed: Server;
  let closedPort = 0;
  beforeAll(async () => {
    sandbox = makeSandbox({ SVC_API_KEY: 'sk-proxy', SVC_MAX_RETRIES: '0' });
    // A port that refuses: listened on, then closed.
    closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(() => sandbox.cleanup());

  it('blames the proxy, names its variable, and never prints its password (exit 6)', async () => {
    const env = { ...sandbox.env, SVC_BASE_URL: 'http://service.invalid:8080', HTTP_PROXY: `http://me:s3cret@127.0.0.1:${closedPort}` };
    const result = await runSvc(['chat', '--no-save', 'hi'], { ...sandbox, env });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain(`could not connect to the proxy http://127.0.0.1:${closedPort}: connection refused`);
    expect(result.stderr).toContain('requests to service.invalid:8080 go through it (HTTP_PROXY)');
    expect(result.stderr).not.toContain('s3cret');
  });

  it('a proxy variable that is no address is exit 2 before anything is sent', async () => {
    const result = await runSvc(['chat', '--no-save', 'hi'], { ...sandbox, env: { ...sandbox.env, SVC_BASE_URL: 'http://service.invalid', https_proxy: 'http://[' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('svc: error: https_proxy is not a proxy address svc can read');
  });
});
