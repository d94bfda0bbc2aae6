/**
 * svc batch never opens more connections than --concurrency (issue 21, item 2): single-slot
 * servers (llama.cpp's server) hold every extra connection waiting. Counted at the server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await server?.close();
  sandbox?.cleanup();
});

const completion = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
const chatLine = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });

describe('connections to the service', () => {
  it.each([1, 4])('--concurrency %i: 16 requests over at most that many connections, reused', async (concurrency) => {
    server = await startScriptedServer(
      reply.repeat((_req, res) => {
        // A short wait, so the workers really overlap.
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(completion), 5);
      }),
    );
    sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'connections-key-0123' });
    writeFileSync(join(sandbox.home, 'in.jsonl'), Array.from({ length: 16 }, (_, n) => chatLine(`q${n}`)).join('\n'));
    const result = await runSvc(['batch', 'in.jsonl', '--concurrency', String(concurrency)], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(16);
    const { total, most } = server.connections();
    expect(most).toBeLessThanOrEqual(concurrency);
    expect(total).toBeLessThanOrEqual(concurrency);
  });
});
