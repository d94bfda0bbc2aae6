/** SIGTERM and Ctrl-C in one-shot runs: exit 130, what was printed stays, no temporary files. */
import { readdirSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { chunk, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'signal-key-0123456789abcdef' });
});
afterAll(() => sandbox.cleanup());

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

type Child = ReturnType<typeof execa>;

/** Start svc, wait until `ready` resolves for it (or it ends), send `signal`, return the result. */
async function interrupt(args: string[], signal: 'SIGTERM' | 'SIGINT', ready: (child: Child) => Promise<void>) {
  const child = execa(process.execPath, [SVC_BIN, ...args], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
  await Promise.race([ready(child), child]);
  child.kill(signal);
  return child;
}

/** Resolves once the child has printed `text` on stdout. */
function printed(text: string): (child: Child) => Promise<void> {
  return (child) =>
    new Promise<void>((resolve) => {
      let out = '';
      child.stdout?.on('data', (data: Buffer) => {
        out += data.toString();
        if (out.includes(text)) resolve();
      });
    });
}

/** Pacing for a body that is still coming when the signal arrives (not a way to order events). */
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('signals', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s mid-stream: exit 130, the partial reply kept and saved', async (signal) => {
    scripted.server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 300 && !res.destroyed; i++) {
        res.write(chunk(`part${i} `));
        await pause();
      }
      res.end();
    });
    const result = await interrupt(['chat', '--session', `sig-${signal}`, 'x'], signal, printed('part5 '));
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toMatch(/^part0 part1 part2 part3 part4 part5 /);
    expect(hasStackTrace(result.stderr)).toBe(false);
    const show = await runSvc(['sessions', 'show', `sig-${signal}`], sandbox);
    expect(show.stdout).toContain('[assistant, interrupted]\npart0 part1 part2 part3 part4 part5 ');
  });

  it('SIGTERM while an image downloads: exit 130, no file, no temporary file', async () => {
    const sixSent = signalled();
    const body = Buffer.from(JSON.stringify({ data: [{ b64_json: Buffer.concat([png(8, 8), Buffer.alloc(400_000)]).toString('base64') }] }));
    scripted.server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0, pieces = 0; i < body.length && !res.destroyed; i += 4096, pieces += 1) {
        await new Promise<void>((resolve) => res.write(body.subarray(i, i + 4096), () => resolve()));
        if (pieces === 5) sixSent.resolve();
        await pause();
      }
      res.end();
    });
    const result = await interrupt(['image', 'x', '-o', 'slow.png'], 'SIGTERM', () => sixSent.promise);
    expect(result.exitCode).toBe(130);
    expect(readdirSync(sandbox.home).filter((name) => name.endsWith('.png') || name.endsWith('.part'))).toEqual([]);
  });
});
