/**
 * The key before it is sent: one that cannot go into an HTTP header is exit 3, naming where it
 * came from, with nothing sent and nothing of it quoted; a key file others can read is made
 * owner-only, and svc says so.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const COMPLETION = { id: 'c1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }] };
const KEY_PART = 'sk-partABCDEF';
const GOOD_KEY = 'sk-good-key-0123456789abcdef';

// A chat that must reach the service scripts its one answer (`answered()`); one that must send
// nothing scripts none, so a request fails it.
const scripted = useScriptedServer();
const server = () => scripted.server;
const answered = () => server().script(reply.json(200, COMPLETION));
let sandbox: Sandbox;
const credentials = () => join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'credentials.json');
const storeKey = (value: unknown, mode = 0o600) => {
  mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc'), { recursive: true, mode: 0o700 });
  writeFileSync(credentials(), JSON.stringify({ apiKey: value }));
  chmodSync(credentials(), mode);
};
const chat = (env: Record<string, string> = {}) => runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox, { env: { SVC_BASE_URL: server().baseUrl, ...env } });

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe('a key that cannot be sent', () => {
  it.each([
    ['a line break inside', `${KEY_PART}\nrest`, 'line break'],
    ['a space inside', `${KEY_PART} rest`, 'space or tab'],
    ['a control character', `${KEY_PART}\u0007rest`, 'control character'],
    ['a non-ASCII character', `${KEY_PART}ürest`, 'character outside printable ASCII'],
  ])('SVC_API_KEY with %s: exit 3 naming SVC_API_KEY, nothing sent', async (_name, key, words) => {
    const result = await chat({ SVC_API_KEY: key });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`SVC_API_KEY cannot be used: the key contains a ${words}`);
    expect(result.stderr).not.toContain(KEY_PART);
    expect(hasStackTrace(result.stderr)).toBe(false);
    expect(server().requests).toHaveLength(0);
  });

  it.each([
    ['a space inside', `${KEY_PART} rest`, 'the key contains a space'],
    ['a number', 12345678901234, 'it is not text'],
    ['an array', [KEY_PART], 'it is not text'],
  ])('a stored key with %s: exit 3 naming the file and `svc auth login`, nothing sent', async (_name, value, words) => {
    storeKey(value);
    const result = await chat();
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`the stored key in ${credentials()} cannot be used: ${words}`);
    expect(result.stderr).toContain('svc auth login');
    expect(result.stderr).not.toContain(KEY_PART);
    expect(server().requests).toHaveLength(0);
  });

  it('whitespace around a key (a pasted line, `$(cat key.txt)`) is dropped, as auth login drops it', async () => {
    answered();
    const result = await chat({ SVC_API_KEY: ` ${GOOD_KEY}\n` });
    expect(result.exitCode).toBe(0);
    expect(server().requests[0]!.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);
  });

  it('echo $KEY | svc auth login --with-key stores the key without its newline', async () => {
    const login = await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: `${GOOD_KEY}\n` });
    expect(login.exitCode).toBe(0);
    answered();
    expect((await chat()).exitCode).toBe(0);
    expect(server().requests[0]!.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);
  });
});

describe.skipIf(process.platform === 'win32')('a key file others can read', () => {
  it('is made 0600, and auth status says so (once: the next run has nothing to say)', async () => {
    storeKey(GOOD_KEY, 0o644);
    const status = await runSvc(['auth', 'status'], sandbox);
    expect(status.exitCode).toBe(0);
    expect(status.stderr).toContain(`${credentials()} could be read by other users (mode 0644); svc made it owner-only (mode 0600)`);
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);
    expect((await runSvc(['auth', 'status'], sandbox)).stderr).toBe('');
  });

  it('is tightened by any command that reads the key, e.g. a chat, which then goes on', async () => {
    storeKey(GOOD_KEY, 0o640);
    answered();
    const result = await chat();
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('svc made it owner-only');
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);
  });
});
