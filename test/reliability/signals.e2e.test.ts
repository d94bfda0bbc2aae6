/** SIGTERM and Ctrl-C in one-shot runs: exit 130, what was printed stays, no temporary files. */
import { readdirSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/fake-images.js';
import { hasStackTrace, makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { chunk, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'signal-key-0123456789abcdef' });
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

/** Start svc, wait until `ready` says so, send `signal`, return the result. */
async function interrupt(args: string[], signal: 'SIGTERM' | 'SIGINT', ready: () => boolean) {
  const child = execa(process.execPath, [SVC_BIN, ...args], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
  const deadline = Date.now() + 10_000;
  while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  child.kill(signal);
  return child;
}

describe('signals', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s mid-stream: exit 130, the partial reply kept and saved', async (signal) => {
    let sent = 0;
    server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 300 && !res.destroyed; i++) {
        res.write(chunk(`part${i} `));
        sent += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      res.end();
    });
    sent = 0;
    const result = await interrupt(['chat', '--session', `sig-${signal}`, 'x'], signal, () => sent > 5);
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toMatch(/^part0 part1 /);
    expect(hasStackTrace(result.stderr)).toBe(false);
    const show = await execa(process.execPath, [SVC_BIN, 'sessions', 'show', `sig-${signal}`], { env: sandbox.env, extendEnv: false });
    expect(show.stdout).toContain('[assistant, interrupted]\npart0 part1 ');
  });

  it('SIGTERM while an image downloads: exit 130, no file, no temporary file', async () => {
    let sent = 0;
    const body = Buffer.from(JSON.stringify({ data: [{ b64_json: Buffer.concat([png(8, 8), Buffer.alloc(400_000)]).toString('base64') }] }));
    server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < body.length && !res.destroyed; i += 4096) {
        res.write(body.subarray(i, i + 4096));
        sent += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      res.end();
    });
    const result = await interrupt(['image', 'x', '-o', 'slow.png'], 'SIGTERM', () => sent > 5);
    expect(result.exitCode).toBe(130);
    expect(readdirSync(sandbox.home).filter((name) => name.endsWith('.png') || name.endsWith('.part'))).toEqual([]);
  });
});
