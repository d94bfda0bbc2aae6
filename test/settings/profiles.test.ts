/**
 * Profiles (issue 15, items 8-10): each profile has its own base URL, key and settings; a request
 * under one profile never carries another's key; the environment beats every profile; the files
 * of the default profile stay where they were, untouched.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const DEFAULT_KEY = 'sk-default-key-0000000001';
const WORK_KEY = 'sk-work-key-000000000002';
const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };

// Two services; a test scripts on each the chats that must reach it (`answer(server, n)`), so a
// request to the other one, or one more than expected, fails it.
const scriptedHome = useScriptedServer();
const scriptedOffice = useScriptedServer();
let home: ScriptedServer;
let office: ScriptedServer;
let sandbox: Sandbox;

beforeAll(() => {
  [home, office] = [scriptedHome.server, scriptedOffice.server];
});
const answer = (server: ScriptedServer, count = 1) => server.script(...Array.from({ length: count }, () => reply.json(200, completion)));

const configRoot = () => join(sandbox.env.XDG_CONFIG_HOME!, 'svc');
const run = (args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) => runSvc(args, sandbox, options);
const chat = (...flags: string[]) => run(['chat', '--no-stream', '--no-save', ...flags, 'hello']);
const keysSeen = (server: ScriptedServer) => server.requests.map((request) => request.headers.authorization);

/** The default profile on `home`, a "work" profile on `office`, each with its own key. */
async function twoProfiles(): Promise<void> {
  expect((await run(['config', 'set', 'baseUrl', home.baseUrl])).exitCode).toBe(0);
  expect((await run(['auth', 'login', '--with-key'], { stdin: DEFAULT_KEY })).exitCode).toBe(0);
  expect((await run(['config', 'set', '--profile', 'work', 'baseUrl', office.baseUrl])).exitCode).toBe(0);
  expect((await run(['auth', 'login', '--profile', 'work', '--with-key'], { stdin: WORK_KEY })).exitCode).toBe(0);
}

beforeEach(() => {
  sandbox = makeSandbox({ SVC_MAX_RETRIES: '0' });
});
afterEach(() => sandbox.cleanup());

describe('profiles are isolated from each other', () => {
  it('each request goes to its profile\'s base URL with its profile\'s key, and only that one', async () => {
    await twoProfiles();
    answer(office);
    answer(home);
    expect((await chat('--profile', 'work')).exitCode).toBe(0);
    expect(keysSeen(office)).toEqual([`Bearer ${WORK_KEY}`]);
    expect(keysSeen(home)).toEqual([]);
    expect((await chat()).exitCode).toBe(0);
    expect(keysSeen(home)).toEqual([`Bearer ${DEFAULT_KEY}`]);
    expect(keysSeen(office)).toEqual([`Bearer ${WORK_KEY}`]);
  });

  it('a profile without a key never borrows the default\'s: exit 3, nothing sent', async () => {
    await twoProfiles();
    await run(['config', 'set', '--profile', 'bare', 'baseUrl', office.baseUrl]);
    const result = await chat('--profile', 'bare');
    expect(result.exitCode).toBe(3);
    // The hint names the profile in use (issue 26, item 5).
    expect(result.stderr).toContain('no API key is set for the profile "bare"');
    expect(result.stderr).toContain('run `svc auth login --profile bare`, or set SVC_API_KEY');
    expect(office.requests).toEqual([]);
    expect(home.requests).toEqual([]);
  });

  it('a profile without a base URL never sends its key to the default\'s service: exit 2, nothing sent', async () => {
    await twoProfiles();
    await run(['auth', 'login', '--profile', 'nourl', '--with-key'], { stdin: WORK_KEY });
    const result = await chat('--profile', 'nourl');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no service base URL is set');
    expect(home.requests).toEqual([]);
  });

  it('stored settings are per profile (config get/list/path), the key file owner-only in an owner-only folder', async () => {
    await twoProfiles();
    await run(['config', 'set', '--profile', 'work', 'model', 'work-model']);
    expect((await run(['config', 'get', 'baseUrl', '--profile', 'work'])).stdout).toBe(`${office.baseUrl}\n`);
    expect((await run(['config', 'get', 'baseUrl'])).stdout).toBe(`${home.baseUrl}\n`);
    expect((await run(['config', 'get', '--stored', 'model'])).exitCode).toBe(1);
    expect((await run(['config', 'get', 'model'])).stdout).toBe('svc-pro\n');
    expect((await run(['config', 'get', 'model', '--profile', 'work'])).stdout).toBe('work-model\n');
    expect((await run(['config', 'list', '--profile', 'work'])).stdout).toContain('model\twork-model\tstored');
    const workDir = join(configRoot(), 'profiles', 'work');
    expect((await run(['config', 'path', '--profile', 'work'])).stdout).toBe(`${join(workDir, 'config.json')}\n`);
    if (process.platform !== 'win32') {
      expect(statSync(join(workDir, 'credentials.json')).mode & 0o777).toBe(0o600);
      expect(statSync(workDir).mode & 0o777).toBe(0o700);
    }
  });

  it('logout --profile removes that profile\'s key only', async () => {
    await twoProfiles();
    expect((await run(['auth', 'logout', '--profile', 'work'])).exitCode).toBe(0);
    expect((await run(['auth', 'status', '--profile', 'work'])).exitCode).toBe(3);
    const status = await run(['auth', 'status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain('key: sk-********0001 from stored');
  });
});

describe('which profile is used', () => {
  it('--profile beats SVC_PROFILE, which beats `svc profiles use`, which beats "default"', async () => {
    await twoProfiles();
    await run(['auth', 'login', '--profile', 'third', '--with-key'], { stdin: 'sk-third-key-00000000003' });
    await run(['config', 'set', '--profile', 'third', 'baseUrl', home.baseUrl]);
    expect((await run(['profiles', 'use', 'work'])).exitCode).toBe(0);
    answer(office);
    answer(home, 2);
    await chat();
    expect(keysSeen(office)).toEqual([`Bearer ${WORK_KEY}`]);
    await run(['chat', '--no-stream', '--no-save', 'hello'], { env: { SVC_PROFILE: 'default' } });
    expect(keysSeen(home)).toEqual([`Bearer ${DEFAULT_KEY}`]);
    await run(['chat', '--no-stream', '--no-save', '--profile', 'third', 'hello'], { env: { SVC_PROFILE: 'default' } });
    expect(keysSeen(home)).toEqual([`Bearer ${DEFAULT_KEY}`, 'Bearer sk-third-key-00000000003']);
    expect((await run(['auth', 'status'])).stdout).toContain('profile: work from the default chosen with `svc profiles use`');
    expect((await run(['profiles', 'use', 'default'])).exitCode).toBe(0);
    expect((await run(['auth', 'status'])).stdout).toMatch(/^profile: default\n/);
  });

  it('the environment beats the stored settings of any profile (SVC_BASE_URL, SVC_API_KEY, SVC_MODEL)', async () => {
    await twoProfiles();
    await run(['config', 'set', '--profile', 'work', 'model', 'work-model']);
    answer(home);
    const result = await run(['chat', '--no-stream', '--no-save', '--profile', 'work', 'hello'], { env: { SVC_BASE_URL: home.baseUrl, SVC_API_KEY: 'sk-from-env-000000000009', SVC_MODEL: 'env-model' } });
    expect(result.exitCode).toBe(0);
    expect(office.requests).toEqual([]);
    expect(keysSeen(home)).toEqual(['Bearer sk-from-env-000000000009']);
    expect(JSON.parse(home.requests[0]!.body).model).toBe('env-model');
  });

  it('an unknown profile is exit 2 naming the known ones, nothing sent, whatever the environment gives', async () => {
    await twoProfiles();
    for (const [args, env] of [
      [['chat', '--no-stream', '--profile', 'wrok', 'hello'], {}],
      [['chat', '--no-stream', 'hello'], { SVC_PROFILE: 'wrok' }],
      [['chat', '--no-stream', '--profile', 'wrok', 'hello'], { SVC_API_KEY: 'sk-env-0000000000000001', SVC_BASE_URL: home.baseUrl }],
      [['auth', 'status', '--profile', 'wrok'], {}],
      [['config', 'list', '--profile', 'wrok'], {}],
      [['profiles', 'use', 'wrok'], {}],
    ] as Array<[string[], Record<string, string>]>) {
      const result = await run(args, { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('no profile named "wrok"');
      expect(result.stderr).toContain('profiles: default, work');
    }
    expect([...home.requests, ...office.requests]).toEqual([]);
    expect(existsSync(join(configRoot(), 'profiles', 'wrok'))).toBe(false);
  });

  it('a default chosen with `profiles use` whose folder was removed is exit 2 with how to choose again', async () => {
    await twoProfiles();
    await run(['profiles', 'use', 'work']);
    rmSync(join(configRoot(), 'profiles', 'work'), { recursive: true });
    const result = await chat();
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no profile named "work" (from the default chosen with `svc profiles use`)');
    expect(result.stderr).toContain('svc profiles use <name>');
    expect(home.requests).toEqual([]);
  });

  it.each(['../x', '..', '.', 'a/b', 'Work', '-x', 'x'.repeat(33), ''])('the name %j is refused (exit 2) before anything is read or made', async (name) => {
    const result = await run(['config', 'set', '--profile', name, 'baseUrl', home.baseUrl]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is not a usable profile name');
    expect(existsSync(join(configRoot(), 'profiles'))).toBe(false);
    expect((await run(['chat', 'hello'], { env: { SVC_PROFILE: name || '../y' } })).exitCode).toBe(2);
  });

  it('a choice file that cannot be read is skipped and reported (the default profile is used), and `profiles use` replaces it', async () => {
    await twoProfiles();
    writeFileSync(join(configRoot(), 'profiles.json'), '{"default": "wo');
    answer(home);
    const result = await chat();
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('profiles.json is not valid JSON');
    expect(result.stderr).not.toContain('"wo');
    expect(keysSeen(home)).toEqual([`Bearer ${DEFAULT_KEY}`]);
    expect((await run(['profiles', 'use', 'work'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(configRoot(), 'profiles.json'), 'utf8'))).toEqual({ default: 'work' });
  });
});

describe('the default profile keeps the files of before', () => {
  it('config.json and credentials.json in the config folder are used as they are, and never touched by another profile', async () => {
    mkdirSync(configRoot(), { recursive: true, mode: 0o700 });
    const config = `{\n\t"baseUrl": "${home.baseUrl}"\n}`;
    const credentials = `{\n\t"apiKey": "${DEFAULT_KEY}"\n}`;
    writeFileSync(join(configRoot(), 'config.json'), config, { mode: 0o600 });
    writeFileSync(join(configRoot(), 'credentials.json'), credentials, { mode: 0o600 });
    answer(home);
    expect((await chat()).exitCode).toBe(0);
    expect(keysSeen(home)).toEqual([`Bearer ${DEFAULT_KEY}`]);
    await run(['config', 'set', '--profile', 'work', 'baseUrl', office.baseUrl]);
    await run(['auth', 'login', '--profile', 'work', '--with-key'], { stdin: WORK_KEY });
    await run(['profiles', 'use', 'work']);
    await run(['auth', 'logout']);
    expect(readFileSync(join(configRoot(), 'config.json'), 'utf8')).toBe(config);
    expect(readFileSync(join(configRoot(), 'credentials.json'), 'utf8')).toBe(credentials);
    expect(existsSync(join(configRoot(), 'profiles', 'default'))).toBe(false);
  });
});

describe('svc profiles list', () => {
  it('names, stored base URLs, masked keys and the default; the keys never in full', async () => {
    await twoProfiles();
    await run(['config', 'set', '--profile', 'empty', 'timeout', '5']);
    await run(['profiles', 'use', 'work']);
    const result = await run(['profiles', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`default\t${home.baseUrl}\tsk-********0001\nempty\t-\tno key\nwork\t${office.baseUrl}\tsk-********0002\tdefault\n`);
    const json = await run(['profiles', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { name: 'default', baseUrl: home.baseUrl, key: 'sk-********0001', default: false },
      { name: 'empty', baseUrl: null, key: null, default: false },
      { name: 'work', baseUrl: office.baseUrl, key: 'sk-********0002', default: true },
    ]);
    for (const text of [result.stdout, result.stderr, json.stdout, json.stderr]) {
      expect(text).not.toContain(DEFAULT_KEY);
      expect(text).not.toContain(WORK_KEY);
    }
  });

  it('a profile\'s key file others can read is made owner-only; one that cannot be read is reported, not quoted', async () => {
    await twoProfiles();
    const workKeyFile = join(configRoot(), 'profiles', 'work', 'credentials.json');
    if (process.platform !== 'win32') {
      chmodSync(workKeyFile, 0o644);
      const listed = await run(['profiles', 'list']);
      expect(listed.stderr).toContain(`${workKeyFile} could be read by other users (mode 0644); svc made it owner-only`);
      expect(statSync(workKeyFile).mode & 0o777).toBe(0o600);
    }
    writeFileSync(workKeyFile, `{"apiKey": "${WORK_KEY}`);
    const listed = await run(['profiles', 'list']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain(`work\t${office.baseUrl}\tno key`);
    expect(listed.stderr).toContain(`${workKeyFile} is not valid JSON`);
    expect(listed.stderr).not.toContain(WORK_KEY);
    const sent = await chat('--profile', 'work');
    expect(sent.exitCode).toBe(3);
    expect(sent.stderr).not.toContain(WORK_KEY);
    expect(office.requests).toEqual([]);
  });

  it('says when the environment overrides every profile', async () => {
    const result = await run(['profiles', 'list'], { env: { SVC_API_KEY: 'sk-env-0000000000000001' } });
    expect(result.stdout).toBe('default\t-\tno key\tdefault\n');
    expect(result.stderr).toContain('SVC_API_KEY is set and overrides every profile');
  });
});
