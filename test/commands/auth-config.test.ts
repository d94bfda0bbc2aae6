/** `svc auth` and `svc config` (in-process): the stored key and settings, on disk, owner-only. */
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const KEY = 'sk-stored-key-abcdefghijklmnop1234';
let sandbox: Sandbox;
const configDir = () => join(sandbox.env.XDG_CONFIG_HOME!, 'svc');
const mode = (path: string) => statSync(path).mode & 0o777;

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe('svc auth', () => {
  it('login --with-key stores the key owner-only in a 0700 folder, under XDG_CONFIG_HOME', async () => {
    const result = await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: `${KEY}\n` });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain(KEY);
    const file = join(configDir(), 'credentials.json');
    expect(mode(file)).toBe(0o600);
    expect(mode(configDir())).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ apiKey: KEY });
  });

  it('tightens a config folder that already existed with wider modes', async () => {
    mkdirSync(configDir(), { recursive: true });
    chmodSync(configDir(), 0o755);
    await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: KEY });
    expect(mode(configDir())).toBe(0o700);
  });

  it('status shows the key masked and its source; the env variable wins', async () => {
    await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: KEY });
    const stored = await runSvc(['auth', 'status'], sandbox);
    expect(stored.exitCode).toBe(0);
    expect(stored.stdout).toContain('key: sk-********1234 from stored');
    expect(stored.stdout).not.toContain(KEY);
    const fromEnv = await runSvc(['auth', 'status'], sandbox, { env: { SVC_API_KEY: 'env-key-0123456789abcdefgh' } });
    expect(fromEnv.stdout).toContain('from environment (SVC_API_KEY)');
    expect(fromEnv.stdout).not.toContain('env-key-0123456789abcdefgh');
  });

  it('logout removes the key; status then exits 3', async () => {
    await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: KEY });
    const logout = await runSvc(['auth', 'logout'], sandbox);
    expect(logout.exitCode).toBe(0);
    const status = await runSvc(['auth', 'status'], sandbox);
    expect(status.exitCode).toBe(3);
    expect(status.stdout).toContain('key: none');
    expect(readFileSync(join(configDir(), 'credentials.json'), 'utf8')).not.toContain(KEY);
  });

  it('login without a terminal and without --with-key is a usage error', async () => {
    const result = await runSvc(['auth', 'login'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--with-key');
  });

  it('an empty or spaced key is refused and nothing is stored', async () => {
    for (const input of ['', '   \n', 'two words']) {
      const result = await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: input });
      expect(result.stderr, JSON.stringify(input)).toContain('nothing was stored');
      expect(result.exitCode).toBe(2);
    }
    const status = await runSvc(['auth', 'status'], sandbox);
    expect(status.stdout).toContain('key: none');
  });
});

describe('svc config', () => {
  it('set, get, list, unset, path', async () => {
    expect((await runSvc(['config', 'set', 'baseUrl', 'https://api.example.com/'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'set', 'timeout', '30'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'baseUrl'], sandbox)).stdout).toBe('https://api.example.com\n');
    const path = (await runSvc(['config', 'path'], sandbox)).stdout.trimEnd();
    expect(path).toBe(join(configDir(), 'config.json'));
    expect(mode(path)).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ baseUrl: 'https://api.example.com', timeout: 30 });
    const list = await runSvc(['config', 'list'], sandbox, { env: { SVC_MODEL: 'env-model' } });
    expect(list.stdout.split('\n')).toEqual([
      'baseUrl\thttps://api.example.com\tstored',
      'timeout\t30\tstored',
      'maxRetries\t2\tdefault',
      'model\tenv-model\tenv',
      'imageModel\tsvc-vision\tdefault',
      'preview\tauto\tdefault',
      'render\tauto\tdefault',
      'imageInputMax\t2048\tdefault',
      'imageMetadata\ton\tdefault',
      'streamUsage\ton\tdefault',
      'keyCommand\t\tdefault',
      'params\t\tdefault',
      'tools\t\tdefault',
      'contextWindow\t\tdefault',
      'autoCompact\toff\tdefault',
      'saveOneShots\ton\tdefault',
      '',
    ]);
    expect((await runSvc(['config', 'unset', 'timeout'], sandbox)).exitCode).toBe(0);
    const unset = await runSvc(['config', 'get', '--stored', 'timeout'], sandbox);
    expect(unset.exitCode).toBe(1);
    expect(unset.stdout).toBe('');
  });

  it('refuses unknown keys and bad values (exit 2) and stores nothing', async () => {
    const unknown = await runSvc(['config', 'set', 'colour', 'blue'], sandbox);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown setting');
    for (const [key, value] of [['timeout', 'soon'], ['maxRetries', '-1'], ['baseUrl', 'not a url'], ['model', 'two words']]) {
      const result = await runSvc(['config', 'set', key!, value!], sandbox);
      expect(result.exitCode, `${key}=${value}`).toBe(2);
    }
    expect((await runSvc(['config', 'list'], sandbox)).stdout).toContain('timeout\t120\tdefault');
  });

  it('a stored key never shows in config list', async () => {
    await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: KEY });
    const list = await runSvc(['config', 'list'], sandbox);
    expect(list.stdout).not.toContain(KEY);
  });
});
