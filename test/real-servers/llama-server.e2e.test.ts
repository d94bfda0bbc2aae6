/**
 * svc against llama.cpp's own `llama-server` (docs/real-servers.md says how to build it and get a
 * tiny model): the behaviours of issue 21 that this real server shows. Runs only when
 * SVC_LLAMA_SERVER (the binary) and SVC_LLAMA_MODEL (a .gguf file) are set: `npm run test:real`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { freePort, startServer } from './start-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';

const binary = process.env.SVC_LLAMA_SERVER;
const model = process.env.SVC_LLAMA_MODEL;
const KEY = `sk-llama-${process.pid}`;
const MODEL_ALIAS = 'tiny-llama';

let server: ResultPromise | undefined;
let sandbox: Sandbox;

describe.skipIf(!binary || !model)('svc against llama-server (set SVC_LLAMA_SERVER and SVC_LLAMA_MODEL to run)', () => {
  beforeAll(async () => {
    const port = await freePort();
    // One slot, a 512-token context and no context shift: a long prompt is refused inside the stream.
    const baseUrl = `http://127.0.0.1:${port}`;
    server = (await startServer(binary!, ['-m', model!, '--host', '127.0.0.1', '--port', String(port), '--api-key', KEY, '-a', MODEL_ALIAS, '-c', '512', '-n', '32', '-t', '2', '--no-context-shift'], {}, async () => (await fetch(`${baseUrl}/health`)).status === 200)).process;
    sandbox = makeSandbox({ SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY, SVC_MODEL: MODEL_ALIAS });
  }, 90_000);
  afterAll(async () => {
    server?.kill();
    await server;
    sandbox?.cleanup();
  });

  it('a streamed one-shot answer, and --no-stream, and --json', async () => {
    const streamed = await svc(['chat', '--no-save', '--max-tokens', '8', 'hello'], sandbox);
    expect(streamed.exitCode, streamed.stderr).toBe(0);
    expect(streamed.stdout.length).toBeGreaterThan(1);
    const whole = await svc(['chat', '--no-save', '--no-stream', '--max-tokens', '8', 'hello'], sandbox);
    expect(whole.exitCode, whole.stderr).toBe(0);
    const json = await svc(['chat', '--no-save', '--json', '--max-tokens', '8', 'hello'], sandbox);
    expect(JSON.parse(json.stdout)).toMatchObject({ object: 'chat.completion', model: MODEL_ALIAS, choices: [{ message: { role: 'assistant' } }] });
  });

  it("a prompt over the context size: the server's `error:` line, its message, exit 4 (item 3)", async () => {
    const result = await svc(['chat', '--no-save', 'word '.repeat(2000)], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('exceeds the available context size');
    expect(result.stderr).not.toContain('without choices');
  });

  it('a wrong key: exit 3', async () => {
    const result = await svc(['chat', '--no-save', 'hi'], { ...sandbox, env: { ...sandbox.env, SVC_API_KEY: 'sk-wrong' } });
    expect(result.exitCode).toBe(3);
  });

  it('batch of 8 at --concurrency 4 finishes with every answer (item 2), and | head -1 stops it (item 1)', async () => {
    const lines = Array.from({ length: 8 }, (_, n) => JSON.stringify({ custom_id: `q${n}`, method: 'POST', url: '/v1/chat/completions', body: { max_tokens: 4, messages: [{ role: 'user', content: `q${n}` }] } }));
    writeFileSync(join(sandbox.home, 'eight.jsonl'), lines.join('\n'));
    const result = await svc(['batch', 'eight.jsonl', '--concurrency', '4'], sandbox, { timeout: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(8);
    const piped = await execa('bash', ['-c', `node "${SVC_BIN}" batch eight.jsonl --concurrency 2 | head -1; exit "\${PIPESTATUS[0]}"`], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false });
    expect(piped.exitCode).toBe(141);
    expect(piped.stderr).toBe('');
  }, 90_000);
});
