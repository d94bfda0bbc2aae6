/**
 * A hand-broken config.json or credentials.json: every command names the file and how to fix it,
 * never quotes it (it may hold the key), never overwrites it silently, and a command whose
 * settings come from elsewhere still works (the broken file is skipped and reported).
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc, type InProcessResult } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

/** Planted in every broken file: no output may ever contain it. */
const SECRET = 'sk-PLANTED-secret-9f8e7d6c5b4a';

const BROKEN_CONTENTS: Array<[string, string]> = [
  ['cut mid-record', `{"apiKey": "${SECRET}", "model": `],
  ['a bare key', `{"apiKey": ${SECRET}}`],
  ['an array', `["${SECRET}"]`],
  ['a string', `"${SECRET}"`],
  ['null', 'null'],
  ['a number', '42'],
];

const COMPLETION = { id: 'c1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }] };

// A chat that must reach the service scripts its one answer (`answered()`); one that must send
// nothing scripts none, so a request fails it.
const scripted = useScriptedServer();
const server = () => scripted.server;
const answered = () => server().script(reply.json(200, COMPLETION));
let sandbox: Sandbox;
const dir = () => join(sandbox.env.XDG_CONFIG_HOME!, 'svc');
const file = (name: string) => join(dir(), name);
const plant = (name: string, content: string) => {
  mkdirSync(dir(), { recursive: true });
  writeFileSync(file(name), content, { mode: 0o600 });
};
const run = (args: string[], options: Parameters<typeof runSvc>[2] = {}) => runSvc(args, sandbox, options);

/** Nothing of the file quoted, no "unexpected error", and no stack trace unless SVC_DEBUG=1 asked for one. */
function expectClean(result: InProcessResult, debug = false): void {
  expect(result.stdout + result.stderr).not.toContain(SECRET);
  expect(result.stderr).not.toMatch(/unexpected error/);
  if (!debug) expect(hasStackTrace(result.stderr)).toBe(false);
}

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe('a broken credentials.json', () => {
  it.each(BROKEN_CONTENTS)('(%s): auth status names the file and the fix, exit 3, nothing of it quoted', async (_name, content) => {
    plant('credentials.json', content);
    const result = await run(['auth', 'status']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(file('credentials.json'));
    expect(result.stderr).toContain('svc auth login');
    expectClean(result);
  });

  it.each(BROKEN_CONTENTS)('(%s): chat says so, sends nothing, and quotes nothing', async (_name, content) => {
    plant('credentials.json', content);
    const result = await run(['chat', '--no-save', '--base-url', server().baseUrl, 'hi'], { env: { SVC_DEBUG: '1' } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(file('credentials.json'));
    expect(server().requests).toHaveLength(0);
    expectClean(result, true);
  });

  it('says where JSON.parse stopped, as a line and column', async () => {
    plant('credentials.json', `{\n  "apiKey": "${SECRET}"\n  "model": "x"\n}`);
    const result = await run(['auth', 'status']);
    expect(result.stderr).toContain('is not valid JSON (line 3, column 3)');
    expectClean(result);
  });

  it('is not read at all when SVC_API_KEY is set', async () => {
    plant('credentials.json', `{"apiKey": ${SECRET}`);
    answered();
    const result = await run(['chat', '--no-save', '--base-url', server().baseUrl, 'hi'], { env: { SVC_API_KEY: 'env-key-0123456789' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('auth login replaces it, says so, and stores the new key owner-only', async () => {
    plant('credentials.json', `{"apiKey": ${SECRET}`);
    const result = await run(['auth', 'login', '--with-key'], { stdin: 'sk-new-key-0123456789abcd\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`${file('credentials.json')} is not valid JSON`);
    expect(result.stderr).toContain('replaced it');
    expect(JSON.parse(readFileSync(file('credentials.json'), 'utf8'))).toEqual({ apiKey: 'sk-new-key-0123456789abcd' });
    expectClean(result);
  });

  it('auth logout removes it and says so', async () => {
    plant('credentials.json', `["${SECRET}"]`);
    const result = await run(['auth', 'logout']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('removed it');
    expect(() => readFileSync(file('credentials.json'))).toThrow();
    expectClean(result);
  });

  it('a zero-byte or blank file holds no key: "no API key is set", no warning', async () => {
    for (const content of ['', '  \n']) {
      plant('credentials.json', content);
      const result = await run(['auth', 'status']);
      expect(result.exitCode).toBe(3);
      expect(result.stderr).toContain('no API key is set');
      expect(result.stderr).not.toContain('warning');
    }
  });

  it('a folder in its place gets a clear message, and auth login does not touch it', async () => {
    mkdirSync(file('credentials.json'), { recursive: true });
    const status = await run(['auth', 'status']);
    expect(status.exitCode).toBe(3);
    expect(status.stderr).toContain(`${file('credentials.json')} is a folder, not a file`);
    const login = await run(['auth', 'login', '--with-key'], { stdin: 'sk-new-key-0123456789abcd' });
    expect(login.exitCode).toBe(1);
    expect(login.stderr).toContain('is a folder, not a file; svc did not change it');
    expectClean(login);
  });

  it('a symlink to the real file is followed, and a login writes through it, keeping the link', async () => {
    mkdirSync(dir(), { recursive: true });
    const target = join(sandbox.home, 'dotfiles-credentials.json');
    writeFileSync(target, '{}', { mode: 0o600 });
    symlinkSync(target, file('credentials.json'));
    const login = await run(['auth', 'login', '--with-key'], { stdin: 'sk-linked-key-0123456789' });
    expect(login.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ apiKey: 'sk-linked-key-0123456789' });
    const status = await run(['auth', 'status']);
    expect(status.stdout).toContain('from stored');
  });
});

describe('a broken config.json', () => {
  it.each(BROKEN_CONTENTS)('(%s): a chat whose settings come from flags and env works, with one warning naming the file', async (_name, content) => {
    plant('config.json', content);
    answered();
    const result = await run(['chat', '--no-save', '--base-url', server().baseUrl, 'hi'], { env: { SVC_API_KEY: 'env-key-0123456789' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('hello\n');
    expect(result.stderr).toContain(`svc: warning: ${file('config.json')}`);
    expect(result.stderr).toContain('its settings are ignored');
    expect(result.stderr.match(/warning/g)).toHaveLength(1);
    expectClean(result);
  });

  it.each(BROKEN_CONTENTS)('(%s): config set refuses to overwrite it, and it is left byte for byte', async (_name, content) => {
    plant('config.json', content);
    const result = await run(['config', 'set', 'model', 'svc-mini'], { env: { SVC_DEBUG: '1' } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(file('config.json'));
    expect(result.stderr).toContain('svc did not change it');
    expect(readFileSync(file('config.json'), 'utf8')).toBe(content);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('config unset refuses too, config get --stored names the file (exit 1), and config get says it is skipped, as every command does', async () => {
    plant('config.json', `{"model": ${SECRET}`);
    const unset = await run(['config', 'unset', 'model']);
    expect(unset.exitCode).toBe(1);
    expect(readFileSync(file('config.json'), 'utf8')).toBe(`{"model": ${SECRET}`);
    const stored = await run(['config', 'get', '--stored', 'model']);
    expect(stored.exitCode).toBe(1);
    expect(stored.stderr).toContain(`${file('config.json')} is not valid JSON`);
    // The value a command would use: the default, with the warning every command gives.
    const inEffect = await run(['config', 'get', 'model']);
    expect([inEffect.exitCode, inEffect.stdout]).toEqual([0, 'svc-pro\n']);
    expect(inEffect.stderr).toContain(`${file('config.json')} is not valid JSON`);
    expectClean(unset);
    expectClean(stored);
    expectClean(inEffect);
  });

  it('config set still works on a zero-byte file', async () => {
    plant('config.json', '');
    expect((await run(['config', 'set', 'timeout', '30'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file('config.json'), 'utf8'))).toEqual({ timeout: 30 });
  });

  it('a stored value that is not valid: config list still lists every setting, marks it, and says how to fix it (exit 2)', async () => {
    plant('config.json', JSON.stringify({ timeout: -1, model: 'svc-mini' }));
    const list = await run(['config', 'list'], { env: { ...sandbox.env, SVC_MAX_RETRIES: 'lots' } });
    expect(list.exitCode).toBe(2);
    expect(list.stdout).toContain('timeout\t\tinvalid\n');
    expect(list.stdout).toContain('maxRetries\t\tinvalid\n');
    expect(list.stdout).toContain('model\tsvc-mini\tstored\n');
    expect(list.stderr).toContain('the stored setting timeout');
    expect(list.stderr).toContain('svc config unset timeout');
    expect(list.stderr).toContain('SVC_MAX_RETRIES must be a whole number');
    expectClean(list);
  });

  it('a folder in its place: config list warns and lists the defaults; config set says what is wrong', async () => {
    mkdirSync(file('config.json'), { recursive: true });
    const list = await run(['config', 'list']);
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toContain(`${file('config.json')} is a folder, not a file`);
    expect(list.stdout).toContain('timeout\t120\tdefault');
    const set = await run(['config', 'set', 'timeout', '30']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain('is a folder, not a file; svc did not change it');
    expectClean(set);
  });

  it('the config folder being a file gets a message naming it', async () => {
    mkdirSync(sandbox.env.XDG_CONFIG_HOME!, { recursive: true });
    writeFileSync(dir(), 'not a folder');
    const set = await run(['config', 'set', 'timeout', '30']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain(`${dir()} is not a folder`);
    expect(readFileSync(dir(), 'utf8')).toBe('not a folder');
    expectClean(set);
    rmSync(dir());
  });
});
