/**
 * HTTPS, as with a service behind a private certificate authority: refused with a hint until
 * NODE_EXTRA_CA_CERTS names the authority, then a normal streamed answer. The server offers
 * HTTP/2 too; svc asks for HTTP/1.1 only, so its lazily loaded HTTP/2 code stays unused.
 * The certificate in test/fixtures is self-signed, for 127.0.0.1 and localhost, tests only.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasStackTrace, makeSandbox, svc, type Sandbox } from '../helpers/run-svc.js';

const KEY = 'tls-key-0123456789abcdef';
const CERT = fileURLToPath(new URL('../fixtures/tls-test-cert.pem', import.meta.url));
const PRIVATE_KEY = fileURLToPath(new URL('../fixtures/tls-test-key.pem', import.meta.url));
let server: Server;
let sandbox: Sandbox;
const seen: { httpVersion: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer({ cert: readFileSync(CERT), key: readFileSync(PRIVATE_KEY), ALPNProtocols: ['h2', 'http/1.1'] }, (req, res) => {
    seen.push({ httpVersion: req.httpVersion, authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices":[{"index":0,"delta":{"content":"sealed"},"finish_reason":null}]}\n\n'
        + 'data: {"choices":[{"index":0,"delta":{"content":" and delivered"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // A model named, so svc asks no model list first: the one request is the chat.
  sandbox = makeSandbox({ SVC_BASE_URL: `https://127.0.0.1:${port}`, SVC_API_KEY: KEY, SVC_MODEL: 'svc-pro' });
});
beforeEach(() => {
  seen.length = 0;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  sandbox.cleanup();
});

describe('HTTPS with a private certificate authority', () => {
  it('is refused with a hint at NODE_EXTRA_CA_CERTS, exit 6, nothing sent', async () => {
    const result = await svc(['chat', '--no-save', 'hello'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('self-signed certificate');
    expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(hasStackTrace(result.stderr)).toBe(false);
    expect(seen).toEqual([]);
  });

  it('works once NODE_EXTRA_CA_CERTS names the authority, over HTTP/1.1', async () => {
    const result = await svc(['chat', '--no-save', 'hello'], { ...sandbox, env: { ...sandbox.env, NODE_EXTRA_CA_CERTS: CERT } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('sealed and delivered');
    expect(seen).toEqual([{ httpVersion: '1.1', authorization: `Bearer ${KEY}` }]);
  });
});
