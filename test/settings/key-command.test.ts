/**
 * Keys outside a plain file (issue 26, item 8): `svc config set keyCommand CMD` runs CMD without a
 * shell (words split as a shell would, nothing expanded), with a timeout, and takes its first line
 * as the key, over the stored key and under SVC_API_KEY; `svc auth status` says where the key
 * came from without showing it; every failure is exit 3 saying why, never the command's output.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { keyFromCommand } from '../../src/settings/key-command.js';
import { splitCommandLine } from '../../src/settings/command-line.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

function script(name: string, body: string): string {
  const path = join(sandbox.home, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
const answer = () => reply.sse([chunk('ok', 'stop'), 'data: [DONE]\n\n']);
const bearer = () => scripted.server.requests.at(-1)!.headers.authorization;

describe('splitCommandLine', () => {
  it.each([
    ['pass show svc', ['pass', 'show', 'svc']],
    [`security find-generic-password -s 'svc key' -w`, ['security', 'find-generic-password', '-s', 'svc key', '-w']],
    ['op read "op://Private/svc/api key"', ['op', 'read', 'op://Private/svc/api key']],
    ['echo a\\ b "$HOME" \'$HOME\'', ['echo', 'a b', '$HOME', '$HOME']],
  ])('%j → %j (no shell, nothing expanded)', (text, words) => {
    expect(splitCommandLine(text)).toEqual(words);
  });

  it('refuses an open quote and an empty command', () => {
    expect(() => splitCommandLine('pass "show')).toThrow('the " is never closed');
    expect(() => splitCommandLine('   ')).toThrow('keyCommand is empty');
  });
});

describe('the key from a command', () => {
  it('beats the stored key, yields to SVC_API_KEY, and auth status says where it came from', async () => {
    expect((await runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: 'sk-stored-key-0123456789\n' })).exitCode).toBe(0);
    const command = script('key.sh', 'echo sk-command-key-0123456789; echo second line ignored');
    expect((await runSvc(['config', 'set', 'keyCommand', command], sandbox)).exitCode).toBe(0);
    scripted.server.script(answer(), answer());
    expect((await runSvc(['chat', '--no-save', 'hi'], sandbox)).exitCode).toBe(0);
    expect(bearer()).toBe('Bearer sk-command-key-0123456789');
    expect((await runSvc(['chat', '--no-save', 'hi'], sandbox, { env: { SVC_API_KEY: 'sk-env-key-0123456789' } })).exitCode).toBe(0);
    expect(bearer()).toBe('Bearer sk-env-key-0123456789');
    const status = await runSvc(['auth', 'status'], sandbox);
    expect(status.stdout).toContain(`key: sk-********6789 from command (keyCommand): ${command}\n`);
    expect(status.stdout + status.stderr).not.toContain('sk-command-key-0123456789');
  });

  it('a command that fails is exit 3 with its own first line of stderr, and nothing is sent', async () => {
    const command = script('locked.sh', 'echo sk-half-printed-key-0000000000; echo "gpg: decryption failed: no secret key" >&2; exit 2');
    await runSvc(['config', 'set', 'keyCommand', command], sandbox);
    scripted.server.script();
    const result = await runSvc(['chat', 'hi'], sandbox);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('gave no key: it failed (exit 2): gpg: decryption failed: no secret key');
    expect(result.stderr).not.toContain('sk-half-printed');
    // The way out is named where the command was set: this profile's settings, or the environment.
    expect(result.stderr).toContain('stop using it: `svc config unset keyCommand`');
    await runSvc(['profiles', 'add', 'work'], sandbox);
    await runSvc(['config', 'set', '--profile', 'work', 'keyCommand', command], sandbox);
    const inProfile = await runSvc(['chat', '--profile', 'work', 'hi'], sandbox);
    expect(inProfile.exitCode).toBe(3);
    expect(inProfile.stderr).toContain('stop using it: `svc config unset keyCommand --profile work`');
    const fromEnv = await runSvc(['chat', 'hi'], sandbox, { env: { SVC_KEY_COMMAND: command } });
    expect(fromEnv.stderr).toContain('stop using it: `unset SVC_KEY_COMMAND`');
  });

  it('a command that is not there, prints nothing, or prints no key: exit 3 saying which', async () => {
    scripted.server.script();
    await runSvc(['config', 'set', 'keyCommand', '/nonexistent/pass show svc'], sandbox);
    const missing = await runSvc(['chat', 'hi'], sandbox);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('cannot run /nonexistent/pass');
    await runSvc(['config', 'set', 'keyCommand', script('empty.sh', 'true')], sandbox);
    expect((await runSvc(['chat', 'hi'], sandbox)).stderr).toContain('printed no key on its first line');
    await runSvc(['config', 'set', 'keyCommand', script('words.sh', 'echo "the key is in the vault"')], sandbox);
    const words = await runSvc(['chat', 'hi'], sandbox);
    expect(words.exitCode).toBe(3);
    expect(words.stderr).toContain('cannot be a key: the key contains a space or tab');
    expect(words.stderr).not.toContain('the key is in the vault');
  });

  it('a command that hangs is stopped at the timeout', async () => {
    await expect(keyFromCommand('sleep 5', process.env, 200)).rejects.toThrow('did not finish within 200 ms');
  });
});
