/**
 * A credentials path that is a symbolic link (issue 21, item 10): svc writes through it only to
 * one of its own credentials files (dotfile managers link them); a link to anything else (a
 * user's notes, another program's JSON) is refused, exit 1, and the file it points at is left
 * exactly as it was.
 */
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
let credentials: string;
const KEY = 'sk-linked-key-0123456789';

beforeEach(() => {
  sandbox = makeSandbox();
  const dir = join(sandbox.env.XDG_CONFIG_HOME!, 'svc');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  credentials = join(dir, 'credentials.json');
});
afterEach(() => sandbox.cleanup());

const login = () => runSvc(['auth', 'login', '--with-key'], sandbox, { stdin: KEY });

describe('svc auth login through a linked credentials path', () => {
  it.each([
    ['a text file', 'notes.txt', 'my precious notes\n'],
    ["another program's JSON", 'editor.json', '{"theme": "dark", "fontSize": 14}\n'],
    ['a JSON array', 'list.json', '[1, 2, 3]\n'],
  ])('a link to %s: refused with both paths, exit 1, the file untouched', async (_what, name, content) => {
    const target = join(sandbox.home, name);
    writeFileSync(target, content);
    symlinkSync(target, credentials);
    const result = await login();
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${credentials} is a link to ${target}, which is not an svc credentials file; svc did not change it`);
    expect(readFileSync(target, 'utf8')).toBe(content);
    expect(lstatSync(credentials).isSymbolicLink()).toBe(true);
    expect(result.stderr).not.toContain(KEY);
  });

  it("a link to svc's own credentials file (a dotfiles folder): the key is written through it", async () => {
    const target = join(sandbox.home, 'dotfiles-credentials.json');
    writeFileSync(target, '{"apiKey": "sk-old-key-000000000"}\n', { mode: 0o600 });
    symlinkSync(target, credentials);
    const result = await login();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ apiKey: KEY });
    expect(lstatSync(credentials).isSymbolicLink()).toBe(true);
  });

  it('a link to an empty file is taken as a new credentials file', async () => {
    const target = join(sandbox.home, 'empty.json');
    writeFileSync(target, '');
    symlinkSync(target, credentials);
    expect((await login()).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ apiKey: KEY });
  });
});
