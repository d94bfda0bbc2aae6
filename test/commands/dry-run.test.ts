/**
 * `--dry-run` on chat, image and batch: nothing sent (the strict scripted server has no answer,
 * so any request fails the test), nothing written, exit 0, and the request printed as a curl
 * command that carries $SVC_API_KEY, never the key. The printed command is run once against the
 * emulator to show it is ready to run.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '@svc/emulator';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { useScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-dry-run-secret-0123456789';
const context = useScriptedServer();
let sandbox: Sandbox;

beforeEach(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: `${context.server.baseUrl}/prefix`, SVC_API_KEY: KEY });
});
afterEach(() => sandbox.cleanup());

/** The JSON body of a printed curl command (single-quoted after --data-raw). */
function bodyOf(command: string): unknown {
  const quoted = /--data-raw '((?:[^']|'\\'')*)'$/m.exec(command)?.[1];
  return JSON.parse(quoted!.replace(/'\\''/g, "'"));
}

describe('svc chat --dry-run', () => {
  it('prints the request as curl with the URL, headers and exact body, the key as $SVC_API_KEY; sends and saves nothing', async () => {
    writeFileSync(join(sandbox.home, 'a.txt'), "it's a file\n");
    const result = await runSvc(['chat', '--dry-run', '-t', '0', '-s', 'Be brief.', '-f', 'a.txt', 'hello'], sandbox, { stdin: 'piped' });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split(' \\\n  ');
    expect(lines.slice(0, 5)).toEqual([
      `curl -sS --fail-with-body -N '${context.server.baseUrl}/prefix/v1/chat/completions'`,
      '-H "Authorization: Bearer $SVC_API_KEY"',
      "-H 'Content-Type: application/json'",
      "-H 'Accept: application/json, text/event-stream'",
      expect.stringMatching(/^-H 'User-Agent: svc\/\d/),
    ]);
    expect(bodyOf(result.stdout)).toEqual({
      model: 'svc-pro',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: "hello\n\n```a.txt\nit's a file\n```\n\npiped" }],
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(context.server.requests).toEqual([]);
    expect(existsSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations'))).toBe(false);
  });

  it('needs no key, and asks curl not to buffer only a streamed answer', async () => {
    const noKey = await runSvc(['chat', '--dry-run', '--no-stream', 'hi'], sandbox, { env: { SVC_API_KEY: '' } });
    expect(noKey.exitCode).toBe(0);
    expect(noKey.stdout).not.toContain(' -N ');
    expect(bodyOf(noKey.stdout)).toEqual({ model: 'svc-pro', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('is refused with -i (exit 2)', async () => {
    const result = await runSvc(['chat', '--dry-run', '-i', 'hi'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--dry-run prints one request');
  });

  it('escapes what could drive a terminal, as JSON escapes (the same value)', async () => {
    const result = await runSvc(['chat', '--dry-run', 'bell\u0007 csi\u009b[2J bidi\u202e'], sandbox, { stdoutIsTTY: true });
    expect(result.stdout).not.toMatch(/[\u0007\u009b\u202e]/);
    expect(bodyOf(result.stdout)).toMatchObject({ messages: [{ role: 'user', content: 'bell\u0007 csi\u009b[2J bidi\u202e' }] });
  });
});

describe('svc image --dry-run', () => {
  it('prints the image request and writes no file', async () => {
    const result = await runSvc(['image', '--dry-run', 'a red fox', '--aspect', '16:9', '--seed', '7', '-o', 'fox.webp'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split(' \\\n  ')[0]).toBe(`curl -sS --fail-with-body '${context.server.baseUrl}/prefix/v1/images/generations'`);
    expect(bodyOf(result.stdout)).toEqual({ prompt: 'a red fox', model: 'svc-vision', output_format: 'webp', aspect_ratio: '16:9', seed: 7 });
    expect(result.stdout).not.toContain(KEY);
    expect(readdirSync(sandbox.home).filter((name) => name.startsWith('fox'))).toEqual([]);
  });
});

describe('svc batch --dry-run', () => {
  it('checks every line and prints every request under its custom_id, writing nothing', async () => {
    const lines = [
      { custom_id: 'q1', method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'one' }] } },
      { custom_id: 'img', method: 'POST', url: '/v1/images/generations', body: { prompt: 'a cat' } },
    ];
    writeFileSync(join(sandbox.home, 'in.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n'));
    const result = await runSvc(['batch', 'in.jsonl', '-o', 'out.jsonl', '-t', '0', '--dry-run'], sandbox);
    expect(result.exitCode).toBe(0);
    const commands = result.stdout.split('\n\n');
    expect(commands.map((command) => command.split('\n')[0])).toEqual(['# custom_id: "q1"', '# custom_id: "img"']);
    expect(bodyOf(commands[0]!)).toEqual({ model: 'svc-pro', messages: [{ role: 'user', content: 'one' }], temperature: 0 });
    expect(commands[1]).toContain('/prefix/v1/images/generations');
    expect(result.stdout).not.toContain(KEY);
    expect(existsSync(join(sandbox.home, 'out.jsonl'))).toBe(false);
  });

  it('refuses a bad line as a real run does (exit 2)', async () => {
    writeFileSync(join(sandbox.home, 'bad.jsonl'), '{"custom_id": "x"}\n');
    const refused = await runSvc(['batch', 'bad.jsonl', '--dry-run'], sandbox);
    expect(refused.exitCode).toBe(2);
    // The same words a real run says, naming the line, and no command printed.
    expect(refused.stderr).toMatch(/^svc: error: bad\.jsonl: 1 bad line; nothing was sent\n {2}line 1: /);
    expect(refused.stdout).toBe('');
    expect(context.server.requests).toEqual([]);
  });
});

describe('with a stored key (issue 21, item 7)', () => {
  it('one stderr line says how to set $SVC_API_KEY, without the key; stdout is the command alone', async () => {
    const env = { ...sandbox.env, SVC_API_KEY: '' };
    const login = await runSvc(['auth', 'login', '--with-key'], { ...sandbox, env }, { stdin: KEY });
    expect(login.exitCode, login.stderr).toBe(0);
    const result = await runSvc(['chat', '--dry-run', 'hi'], { ...sandbox, env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^curl /);
    expect(result.stderr).toBe('svc: dry run, nothing sent; the command reads the key from $SVC_API_KEY, which is not set here: set it first with  read -rs SVC_API_KEY && export SVC_API_KEY\n');
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('no such line when $SVC_API_KEY is set', async () => {
    const result = await runSvc(['chat', '--dry-run', 'hi'], sandbox);
    expect(result.stderr).toBe('');
  });
});

describe('the printed command', () => {
  it('runs as it is against the emulator, with the key from the environment', async () => {
    const emulator = await startEmulator({ apiKeys: [KEY] });
    try {
      const result = await runSvc(['chat', '--dry-run', '--no-stream', '-t', '0', "what's a lighthouse?"], sandbox, { env: { SVC_BASE_URL: emulator.baseUrl } });
      const run = await execa('bash', ['-c', result.stdout], { env: { SVC_API_KEY: KEY }, reject: false });
      expect(run.exitCode).toBe(0);
      const answer = JSON.parse(run.stdout) as { object: string; choices: Array<{ message: { content: string } }> };
      expect(answer.object).toBe('chat.completion');
      expect(answer.choices[0]!.message.content).toMatch(/lighthouse/i);
      // An HTTP error fails curl (exit 22), with the service's body still shown, as svc would exit non-zero.
      const refused = await execa('bash', ['-c', result.stdout], { env: { SVC_API_KEY: 'sk-wrong-key' }, reject: false });
      expect(refused.exitCode).toBe(22);
      expect(refused.stdout).toContain('"error"');
    } finally {
      await emulator.close();
    }
  });
});
