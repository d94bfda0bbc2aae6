/** The scripted test server holds tests to their script: unused answers and unscripted requests fail. */
import { afterEach, describe, expect, it } from 'vitest';
import { reply, startScriptedServer, type ScriptedServer } from './scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  server?.reset();
  await server?.close();
  server = undefined;
});

const post = async (base: string) => (await fetch(`${base}/v1/x`, { method: 'POST', body: '{}' })).status;

describe('the scripted server', () => {
  it('answers each request with the next handler, once', async () => {
    server = await startScriptedServer(reply.json(201, {}), reply.json(202, {}));
    expect([await post(server.baseUrl), await post(server.baseUrl)]).toEqual([201, 202]);
    expect(() => server!.assertAllUsed()).not.toThrow();
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/x', '/v1/x']);
  });

  it('names the handlers nothing used', async () => {
    server = await startScriptedServer(reply.json(200, {}), reply.json(503, {}), reply.reset());
    await post(server.baseUrl);
    expect(() => server!.assertAllUsed()).toThrow('scripted answers never used: json 503, reset');
  });

  it('does not repeat the last handler: a request past the script is a 500 and a failure', async () => {
    server = await startScriptedServer(reply.json(200, {}));
    expect([await post(server.baseUrl), await post(server.baseUrl)]).toEqual([200, 500]);
    expect(() => server!.assertAllUsed()).toThrow('requests with no scripted answer: POST /v1/x');
  });

  it('repeats a handler only when asked, and it must still answer once', async () => {
    server = await startScriptedServer(reply.json(200, {}), reply.repeat(reply.json(429, {})));
    expect([await post(server.baseUrl), await post(server.baseUrl), await post(server.baseUrl)]).toEqual([200, 429, 429]);
    expect(() => server!.assertAllUsed()).not.toThrow();
    server.script(reply.repeat(reply.json(429, {})));
    expect(() => server!.assertAllUsed()).toThrow('scripted answers never used: json 429, repeated');
    server.reset();
    expect(() => server!.script(reply.repeat(reply.json(500, {})), reply.json(200, {}))).toThrow('only the last handler can repeat');
  });

  it('will not replace a script that was not used up, nor close quietly on one', async () => {
    server = await startScriptedServer(reply.silent());
    expect(() => server!.script(reply.json(200, {}))).toThrow('never used: silence');
    const unused = server;
    server = undefined;
    await expect(unused.close()).rejects.toThrow('never used: silence');
  });
});
