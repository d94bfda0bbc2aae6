/**
 * The key checked with the service (issue 36, item 7): `svc auth login` tries the key it is given
 * (GET /v1/models) before storing it, and in a script does not store one the service refuses
 * (exit 3); `svc auth status` checks the key in use (exit 3 refused, 6 out of reach); a service
 * without the endpoint is "not checked", exit 0; --offline asks nothing. What a person at a
 * terminal is asked (the base URL, keeping a refused key) is in test/e2e/auth-login.pty.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { useScriptedServer } from '../helpers/scripted-server.js';

const GOOD = 'sk-good-key-0123456789abcd';
const BAD = 'sk-bad-key-0123456789abcde';
let emulator: RunningEmulator;
let sandbox: Sandbox;
const scripted = useScriptedServer();
const storedKey = (): unknown => {
  const file = join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'credentials.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { apiKey?: string }).apiKey : undefined;
};
const login = (key: string, env: Record<string, string> = {}, ...flags: string[]) => runSvc(['auth', 'login', '--with-key', ...flags], sandbox, { stdin: key, env });

beforeAll(async () => {
  emulator = await startEmulator({ apiKeys: [GOOD] });
});
afterAll(() => emulator.close());
beforeEach(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: emulator.baseUrl, SVC_MAX_RETRIES: '0' });
});
afterEach(() => sandbox.cleanup());

describe('svc auth login --with-key checks the key before storing it', () => {
  it('a key the service accepts is stored, and said so', async () => {
    const result = await login(GOOD);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^svc: ${emulator.baseUrl} accepted the key\nsvc: stored the key sk-\\*{8}abcd in .+credentials\\.json\n$`));
    expect(storedKey()).toBe(GOOD);
  });

  it('a key the service refuses is not stored: exit 3, the service\'s words, the way around', async () => {
    const result = await login(BAD);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(new RegExp(`^svc: error: ${emulator.baseUrl} refused the key, so it was not stored: Incorrect API key provided\\..* \\(HTTP 401, request id \\S+\\)\n  check the key, or add --offline to store it without asking the service\n$`));
    expect(result.stderr).not.toContain(BAD);
    expect(storedKey()).toBeUndefined();
  });

  it('--offline stores it unchecked, asking nothing', async () => {
    const result = await login(BAD, { SVC_BASE_URL: scripted.server.baseUrl }, '--offline');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(storedKey()).toBe(BAD);
    expect(scripted.server.modelListAsks).toEqual([]);
  });

  it('a service without a model list: stored, "not checked"', async () => {
    const result = await login(GOOD, { SVC_BASE_URL: scripted.server.baseUrl });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`svc: note: the key was not checked: ${scripted.server.baseUrl} has no model list (GET /v1/models)\n`);
    expect(scripted.server.modelListAsks.map((ask) => ask.headers.authorization)).toEqual([`Bearer ${GOOD}`]);
    expect(storedKey()).toBe(GOOD);
  });

  it('a service out of reach: stored unchecked, with the reason', async () => {
    const result = await login(GOOD, { SVC_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^svc: warning: the key could not be checked: could not connect to http:\/\/127\.0\.0\.1:9.*; it is stored unchecked\n/);
    expect(storedKey()).toBe(GOOD);
  });

  it('no base URL anywhere: stored, and how to set one', async () => {
    const result = await login(GOOD, { SVC_BASE_URL: '' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('svc: note: no base URL is set, so the key was not checked; set it with `svc config set baseUrl https://…`\n');
    expect(storedKey()).toBe(GOOD);
  });
});

describe('svc auth status checks the key in use', () => {
  const status = (env: Record<string, string>, ...flags: string[]) => runSvc(['auth', 'status', ...flags], sandbox, { env });

  it('accepted: exit 0', async () => {
    const result = await status({ SVC_API_KEY: GOOD });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\ncheck: the service accepts the key\n$/);
  });

  it('refused: exit 3, said on stdout and as the error', async () => {
    const result = await status({ SVC_API_KEY: BAD });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/\ncheck: the service refuses the key \(HTTP 401\)\n$/);
    expect(result.stderr).toMatch(/^svc: error: the service rejected the API key: Incorrect API key provided/);
  });

  it('out of reach: exit 6', async () => {
    const result = await status({ SVC_API_KEY: GOOD, SVC_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toMatch(/\ncheck: the service cannot be reached\n$/);
  });

  it('a service without the endpoint: "not checked", exit 0', async () => {
    const result = await status({ SVC_API_KEY: GOOD, SVC_BASE_URL: scripted.server.baseUrl });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\ncheck: not checked \(the service has no model list: GET \/v1\/models answered 404\)\n$/);
  });

  it('--offline asks nothing', async () => {
    const result = await status({ SVC_API_KEY: BAD, SVC_BASE_URL: scripted.server.baseUrl }, '--offline');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/\ncheck: skipped \(--offline\)\n$/);
    expect(scripted.server.modelListAsks).toEqual([]);
  });
});
