/**
 * The key never shows: not in output, debug logs, errors, saved conversations or exports. Run
 * in-process: every byte svc writes to stdout and stderr is captured all the same.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { runSvc, type RunOptions } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { useScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-SECRET-d41d8cd98f00b204e9800998ecf8427e';
let emulator: RunningEmulator;
const echo = useScriptedServer();
let sandbox: Sandbox;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ apiKeys: [KEY] });
  sandbox = makeSandbox({ SVC_BASE_URL: emulator.baseUrl });
});
afterAll(async () => {
  await emulator.close();
  sandbox.cleanup();
});

describe('the key', () => {
  it('appears in no output and no file of a full run, except the owner-only credentials file', async () => {
    const outputs: string[] = [];
    const run = async (args: string[], options: RunOptions = {}) => {
      const result = await runSvc(args, sandbox, options);
      outputs.push(result.stdout, result.stderr);
      return result;
    };
    // A hostile or careless service that repeats the Authorization header in its error.
    echo.server.script((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `bad key: ${req.headers.authorization}` } }));
    });
    expect((await run(['auth', 'login', '--with-key'], { stdin: KEY })).exitCode).toBe(0);
    await run(['auth', 'status']);
    await run(['config', 'list']);
    await run(['chat', '--session', 'talk', 'hello']);
    await run(['chat', '--json', '--usage', 'hello again']);
    await run(['chat', 'debug me'], { env: { SVC_DEBUG: '1' } });
    await run(['chat', '-m', 'no-such-model', 'x'], { env: { SVC_DEBUG: '1' } });
    await run(['image', 'a key', '--json']);
    await run(['sessions', 'show', 'talk', '--json']);
    await run(['sessions', 'list']);
    const echoed = await run(['chat', '--base-url', echo.server.baseUrl, 'x'], { env: { SVC_DEBUG: '1' } });
    expect(echoed.exitCode).toBe(3);
    expect(echoed.stderr).toContain('bad key: Bearer [redacted]');

    for (const text of outputs) expect(text).not.toContain(KEY);
    const credentials = join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'credentials.json');
    for (const file of filesUnder(sandbox.home)) {
      if (file === credentials) continue;
      expect(readFileSync(file).includes(KEY), file).toBe(false);
    }
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
  });

  it('a wrong key in the environment is not echoed in the error either', async () => {
    const wrong = 'sk-WRONG-0123456789abcdef0123456789';
    const result = await runSvc(['chat', 'x'], sandbox, { env: { SVC_API_KEY: wrong, SVC_DEBUG: '1' } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).not.toContain(wrong);
  });
});
