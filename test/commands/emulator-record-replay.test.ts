/**
 * Record and replay with svc as the client: `svc emulator --record URL --cassette DIR` passes
 * every request on to a real server (here a scripted one) and keeps each exchange; `--replay DIR`
 * answers from the cassette alone, with that server gone, and svc's output is byte for byte the
 * same. The key never reaches a cassette. (The emulator's own tests see it over HTTP:
 * packages/emulator/test/record-replay.test.ts.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '@svc/emulator';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-real-secret-key-0123456789';
let dir: string;
let sandbox: Sandbox;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cassette-'));
  sandbox = makeSandbox({ SVC_API_KEY: KEY, SVC_MAX_RETRIES: '0' });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  sandbox.cleanup();
});

const completion = { id: 'chatcmpl-r', object: 'chat.completion', created: 9, model: 'real-model', choices: [{ index: 0, message: { role: 'assistant', content: `Recorded answer; your key ${KEY} was echoed here` }, finish_reason: 'stop' }] };
const runs: Array<[string, string[]]> = [
  ['a streamed chat', ['chat', '--no-save', '-m', 'real-model', 'tell me a story']],
  ['a whole chat', ['chat', '--no-save', '--no-stream', '--json', '-m', 'real-model', 'one line please']],
];

describe('svc emulator --record, then --replay', () => {
  const recorded: string[] = [];

  it('records: the answers pass through unchanged, the client key goes on to the server', async () => {
    const server = await startScriptedServer(
      reply.sse([chunk('Once '), chunk('upon '), chunk('a time.', 'stop'), 'data: [DONE]\n\n']),
      reply.json(200, completion, { 'x-request-id': 'req-real-1' }),
    );
    const recorder = await startEmulator({ record: { upstream: server.baseUrl, dir } });
    try {
      for (const [, args] of runs) {
        const result = await runSvc(args, sandbox, { env: { SVC_BASE_URL: recorder.baseUrl } });
        expect(result.exitCode, result.stderr).toBe(0);
        recorded.push(result.stdout);
      }
      expect(recorded[0]).toBe('Once upon a time.\n');
      expect(server.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    } finally {
      await recorder.close();
      await server.close();
    }
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text).not.toContain(KEY);
      expect(JSON.parse(text)).toMatchObject({ request: { method: 'POST', path: '/v1/chat/completions' } });
    }
    const stream = files.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8'))).find((exchange) => exchange.response.chunks);
    expect(stream.response.headers['content-type']).toBe('text/event-stream');
  });

  it('replays with the server gone: the same output, byte for byte', async () => {
    const player = await startEmulator({ apiKeys: [KEY], replay: { dir, timing: false } });
    try {
      for (const [index, [, args]] of runs.entries()) {
        const result = await runSvc(args, sandbox, { env: { SVC_BASE_URL: player.baseUrl } });
        expect(result.exitCode, result.stderr).toBe(0);
        // The key echoed in the recorded text was replaced in the cassette, so that line differs.
        expect(result.stdout).toBe(recorded[index]!.split(KEY).join('[key]'));
      }
      const missing = await runSvc(['chat', '--no-save', '-m', 'real-model', 'never asked'], sandbox, { env: { SVC_BASE_URL: player.baseUrl } });
      expect(missing.exitCode).toBe(4);
      expect(missing.stderr).toContain(`No recording in ${dir} for POST /v1/chat/completions; the closest recorded request is`);
      expect(missing.stderr).not.toContain('could not be read');
    } finally {
      await player.close();
    }
  });
});

/** Run `use` with an emulator started with `options`, closed after it whatever happens. */
async function withEmulator<T>(options: EmulatorOptions, use: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    return await use(emulator);
  } finally {
    await emulator.close();
  }
}

/** A fresh cassette folder for `use`, removed after it. */
async function withCassette<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'svc-cassette-case-'));
  try {
    return await use(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('a short test key', () => {
  it('is replaced only where a value is exactly it: "svc-pro" and prompt_tokens stay, and the replay matches', async () => {
    const args = ['chat', '--no-save', '--no-stream', '--json', '-t', '0', '-m', 'svc-pro', 'hello there'];
    const chatThrough = (baseUrl: string) => runSvc(args, sandbox, { env: { SVC_API_KEY: 'pro', SVC_BASE_URL: baseUrl } });
    await withCassette(async (folder) => {
      const recorded = await withEmulator({ apiKeys: ['pro'] }, (upstream) => withEmulator({ record: { upstream: upstream.baseUrl, dir: folder } }, (recorder) => chatThrough(recorder.baseUrl)));
      expect(recorded.exitCode, recorded.stderr).toBe(0);
      const files = readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8')).join('\n');
      expect(files).toContain('"svc-pro"');
      expect(files).toContain('prompt_tokens');
      expect(files).not.toContain('[key]');
      const replayed = await withEmulator({ apiKeys: ['pro'], replay: { dir: folder, timing: false } }, (player) => chatThrough(player.baseUrl));
      expect(replayed.exitCode, replayed.stderr).toBe(0);
      expect(replayed.stdout).toBe(recorded.stdout);
    });
  });
});

describe('a damaged cassette file', () => {
  it('is named in the answer to the request it held, instead of a misleading closest match alone', async () => {
    await withCassette(async (folder) => {
      writeFileSync(join(folder, 'post-v1_chat_completions-0123456789ab.json'), '{"request": {"method": "POST", "pa');
      const result = await withEmulator({ apiKeys: [KEY], replay: { dir: folder, timing: false } }, (player) => runSvc(['chat', '--no-save', 'hello'], sandbox, { env: { SVC_BASE_URL: player.baseUrl } }));
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain('1 recorded file(s) could not be read: post-v1_chat_completions-0123456789ab.json (not valid JSON)');
    });
  });
});
