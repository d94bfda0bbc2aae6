/**
 * svc against a third-party OpenAI-shaped mock server, @copilotkit/aimock 1.43.0, with the
 * fixtures in docs/aimock-fixtures.json (docs/real-servers.md). Runs only when SVC_AIMOCK_CLI
 * names aimock's dist/cli.js: `npm run test:real`.
 *
 * aimock's journal (GET /__aimock/journal) records every request body, which lets a test see
 * what svc sent back to the service.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, svc, type Sandbox } from '../helpers/run-svc.js';
import { launch, type Launched } from './launch.js';

const cli = process.env.SVC_AIMOCK_CLI;
const FIXTURES = fileURLToPath(new URL('../../docs/aimock-fixtures.json', import.meta.url));
const REASONING = 'The user wants a number. Seven is prime.';

let server: Launched | undefined;
let sandbox: Sandbox;

interface JournalEntry { path: string; body: { messages?: { role: string; content: string }[] } }

/** The chat requests aimock received, oldest first. */
async function chatRequests(): Promise<JournalEntry[]> {
  const answer = await fetch(`${server!.baseUrl}/__aimock/journal?path=/v1/chat/completions`, { headers: { authorization: `Bearer ${server!.key}` } });
  return (await answer.json()) as JournalEntry[];
}

describe.skipIf(!cli)("svc against aimock (skipped: set SVC_AIMOCK_CLI to aimock's dist/cli.js to run)", () => {
  beforeAll(async () => {
    server = await launch({
      name: 'aimock',
      command: process.execPath,
      args: (port) => [cli!, '-p', String(port), '-h', '127.0.0.1', '-f', FIXTURES, '--log-level', 'warn'],
      env: (key) => ({ AIMOCK_API_KEYS: key }),
      keyPrefix: 'sk-aimock',
      readyPath: '/v1/models',
      readyStatus: 200,
    });
    sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: server.key, SVC_MODEL: 'gpt-4o' });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    sandbox?.cleanup();
  });

  it('chat, streamed and not, exactly the fixture text', async () => {
    const streamed = await svc(['chat', '--no-save', 'hello'], sandbox);
    expect(streamed.exitCode, streamed.stderr).toBe(0);
    expect(streamed.stdout).toBe('Hello! How can I help you today?');
    const whole = await svc(['chat', '--no-save', '--no-stream', 'write a haiku'], sandbox);
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(whole.stdout).toBe('Old pond, a frog leaps.\nThe sound of water.\nSilence again.');
  });

  it('item 5: reasoning_content deltas in a pipe: the answer alone on stdout, the reasoning on stderr only with --show-reasoning', async () => {
    const quiet = await svc(['chat', '--no-save', 'think first'], sandbox);
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe('Seven.');
    expect(quiet.stderr).not.toContain(REASONING);
    const shown = await svc(['chat', '--no-save', '--show-reasoning', 'think first'], sandbox);
    expect(shown.stdout).toBe('Seven.');
    expect(shown.stderr).toContain(REASONING);
  });

  it('item 5: --json keeps the reasoning, streamed and not', async () => {
    for (const flags of [[], ['--no-stream']]) {
      const json = await svc(['chat', '--no-save', '--json', ...flags, 'think first'], sandbox);
      expect(json.exitCode, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).choices[0].message).toMatchObject({ content: 'Seven.', reasoning_content: REASONING });
    }
  });

  it('item 5: the saved turn keeps the reasoning, and the next turn does not send it back', async () => {
    const first = await svc(['chat', '--session', 'thinker', 'think first'], sandbox);
    expect(first.exitCode, first.stderr).toBe(0);
    const saved = readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'thinker.jsonl'), 'utf8');
    expect(saved).toContain(REASONING);
    const second = await svc(['chat', '--session', 'thinker', 'hello'], sandbox);
    expect(second.exitCode, second.stderr).toBe(0);
    const latest = (await chatRequests()).at(-1);
    expect(latest!.body.messages!.map((message) => message.content)).toEqual(['think first', 'Seven.', 'hello']);
    expect(JSON.stringify(latest!.body)).not.toContain(REASONING);
  });

  it('item 5: a reply of reasoning only exits 0 with one stderr line saying it was empty, streamed and not', async () => {
    for (const flags of [[], ['--no-stream']]) {
      const result = await svc(['chat', '--no-save', ...flags, 'only think'], sandbox);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/empty/);
    }
  });

  it('item 4: images as b64_json and as a URL, saved and checked alike; --json keeps the URL', async () => {
    const b64 = await svc(['image', 'a lighthouse', '-o', 'lighthouse.png'], sandbox);
    expect(b64.exitCode, b64.stderr).toBe(0);
    expect(b64.stdout).toBe('a small lighthouse, blue hour');
    const url = await svc(['image', 'a harbour', '-o', 'harbour.png', '--json'], sandbox);
    expect(url.exitCode, url.stderr).toBe(0);
    expect(JSON.parse(url.stdout).images[0].url).toMatch(/^data:image\/png;base64,/);
    expect(readFileSync(join(sandbox.home, 'harbour.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('item 4: an image entry with neither b64_json nor url: a clear error, exit 1, no file', async () => {
    const result = await svc(['image', 'an empty image', '-o', 'empty.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('neither b64_json nor url');
    expect(existsSync(join(sandbox.home, 'empty.png'))).toBe(false);
  });

  it("HTTP errors: the server's message; 400 exit 4, 500 exit 1, a 404 that names its own reason without the base-URL hint, a wrong key exit 3", async () => {
    const refused = await svc(['chat', '--no-save', 'refuse this'], sandbox);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain('The prompt breaks the rules.');
    const failed = await svc(['chat', '--no-save', '--max-retries', '0', 'break down'], sandbox);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('The model crashed.');
    const unmatched = await svc(['chat', '--no-save', 'something else'], sandbox);
    expect(unmatched.exitCode).toBe(4);
    expect(unmatched.stderr).toContain('No fixture matched');
    expect(unmatched.stderr).not.toContain('check the base URL');
    const wrongKey = await svc(['chat', '--no-save', 'hello'], { ...sandbox, env: { ...sandbox.env, SVC_API_KEY: 'sk-wrong-key' } });
    expect(wrongKey.exitCode).toBe(3);
    expect(wrongKey.stderr).not.toContain('sk-wrong-key');
  });

  it('a stream cut before the headers (truncateAfterChunks): a network error, exit 6, nothing on stdout', async () => {
    const result = await svc(['chat', '--no-save', '--max-retries', '0', 'cut short'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('');
  });

  it('items 4, 5, 9: a batch of chat, reasoning-only, refused and image requests: each line recorded, images saved into a new --images-dir, exit 1', async () => {
    const request = (id: string, url: string, body: object): string => JSON.stringify({ custom_id: id, method: 'POST', url, body });
    writeFileSync(join(sandbox.home, 'mixed.jsonl'), [
      request('chat', '/v1/chat/completions', { messages: [{ role: 'user', content: 'hello' }] }),
      request('empty', '/v1/chat/completions', { messages: [{ role: 'user', content: 'only think' }] }),
      request('refused', '/v1/chat/completions', { messages: [{ role: 'user', content: 'refuse this' }] }),
      request('b64', '/v1/images/generations', { prompt: 'a lighthouse' }),
      request('url', '/v1/images/generations', { prompt: 'a harbour' }),
    ].join('\n'));
    const result = await svc(['batch', 'mixed.jsonl', '--images-dir', 'new-images', '--concurrency', '2'], sandbox);
    expect(result.exitCode, result.stderr).toBe(1);
    const lines = Object.fromEntries(result.stdout.trim().split('\n').map((line) => JSON.parse(line)).map((line) => [line.custom_id, line]));
    expect(lines.chat.response.body.choices[0].message.content).toBe('Hello! How can I help you today?');
    expect(lines.empty.response.status_code).toBe(200);
    expect(lines.refused.response.status_code).toBe(400);
    expect(lines.url.response.body.data[0].url).toMatch(/^data:image\/png;base64,/);
    for (const id of ['b64', 'url']) {
      expect(readFileSync(join(sandbox.home, 'new-images', `${id}.png`)).subarray(1, 4).toString()).toBe('PNG');
    }
    expect(result.stderr).toContain('4 succeeded, 1 failed');
  });
});
