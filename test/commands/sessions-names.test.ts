/**
 * Naming saved conversations: `sessions show` with no name (the latest) or a unique beginning of
 * one, `sessions rename`, and `delete`/`rm` for sessions, roles and profiles, which ask first on a
 * terminal (--yes does not) and never in a script.
 */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc, type RunOptions } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const run = (args: string[], options: RunOptions = {}) => runSvc(args, sandbox, options);
const conversationsDir = () => join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
const fileOf = (name: string) => join(conversationsDir(), `${name}.jsonl`);

/** A conversation file as svc writes it, changed last at `minute` minutes past 10:00 (file time too: the latest is by file time). */
function save(name: string, user: string, minute: number): void {
  mkdirSync(conversationsDir(), { recursive: true });
  const at = `2025-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const records = [{ type: 'start', v: 1, name, created: at }, { type: 'turn', user, assistant: `reply to ${user}`, at }];
  writeFileSync(fileOf(name), records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o600 });
  const time = new Date(at);
  utimesSync(fileOf(name), time, time);
}

/** A terminal at stdin and stderr, the answer already typed. */
const answering = (answer: string): RunOptions => {
  const stdin = new PassThrough();
  stdin.write(answer);
  return { stdin, stdinKind: 'tty', stderrIsTTY: true };
};

describe('svc sessions show', () => {
  beforeEach(() => {
    save('work', 'about work', 1);
    save('workshop', 'about the workshop', 3);
    save('notes', 'about notes', 2);
  });

  it('with no name shows the conversation changed last', async () => {
    const result = await run(['sessions', 'show']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('[user]\nabout the workshop\n\n[assistant]\nreply to about the workshop\n');
  });

  it('a beginning no other name shares is enough; a whole name wins over a longer one it begins', async () => {
    expect((await run(['sessions', 'show', 'no'])).stdout).toContain('about notes');
    expect((await run(['sessions', 'show', 'work'])).stdout).toContain('[user]\nabout work\n');
    expect((await run(['sessions', 'show', 'works'])).stdout).toContain('about the workshop');
  });

  it('a beginning several names share is exit 2 naming them; one nobody has is the usual "no saved conversation"', async () => {
    const ambiguous = await run(['sessions', 'show', 'wo']);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toContain('"wo" could be any of 2 conversations: work, workshop');
    const none = await run(['sessions', 'show', 'zz']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no saved conversation named "zz"');
  });

  it('something at the whole name that is not a conversation (a folder) is said so, never taken for a beginning of another', async () => {
    mkdirSync(fileOf('wor'));
    const result = await run(['sessions', 'show', 'wor']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('a folder');
    expect(result.stdout).toBe('');
  });

  it('export and fork take a beginning too', async () => {
    expect((await run(['sessions', 'export', 'no', '--format', 'json'])).stdout).toContain('about notes');
    const fork = await run(['sessions', 'fork', 'no']);
    expect(fork.stdout).toBe('notes-fork\n');
  });

  it('with no name and nothing saved: exit 2, saying so', async () => {
    const empty = makeSandbox();
    try {
      const result = await runSvc(['sessions', 'show'], empty);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('no saved conversations yet');
    } finally {
      empty.cleanup();
    }
  });
});

describe('svc sessions rename', () => {
  beforeEach(() => {
    save('work', 'about work', 1);
    save('notes', 'about notes', 2);
  });

  it('moves the conversation to the new name, whole, keeping its place in the list', async () => {
    const before = readFileSync(fileOf('work'), 'utf8');
    expect((await run(['sessions', 'list'])).exitCode).toBe(0); // the listing cache knows "work" now
    const result = await run(['sessions', 'rename', 'wo', 'project']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('renamed "work" to "project"');
    expect(existsSync(fileOf('work'))).toBe(false);
    expect(readFileSync(fileOf('project'), 'utf8')).toBe(before);
    expect((await run(['sessions', 'list'])).stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(['notes', 'project', '']);
    expect((await run(['sessions', 'show', 'project'])).stdout).toContain('about work');
  });

  it('never over a name that is taken, nor to a name svc cannot use: exit 2, nothing moved', async () => {
    const taken = await run(['sessions', 'rename', 'work', 'notes']);
    expect(taken.exitCode).toBe(2);
    expect(taken.stderr).toContain('a conversation named "notes" exists already; nothing was renamed');
    expect(readFileSync(fileOf('notes'), 'utf8')).toContain('about notes');
    expect(existsSync(fileOf('work'))).toBe(true);
    expect((await run(['sessions', 'rename', 'work', '../x'])).exitCode).toBe(2);
    expect((await run(['sessions', 'rename', 'work', 'work'])).stderr).toContain('"work" has that name already');
    expect((await run(['sessions', 'rename', 'nope', 'x'])).stderr).toContain('no saved conversation named "nope"');
    expect(existsSync(fileOf('work'))).toBe(true);
  });
});

describe('svc sessions delete (rm)', () => {
  beforeEach(() => {
    save('work', 'about work', 1);
    save('notes', 'about notes', 2);
  });

  it('in a script asks nothing and deletes', async () => {
    const result = await run(['sessions', 'rm', 'work', 'notes']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('deleted work\ndeleted notes\n');
    expect(existsSync(fileOf('work')) || existsSync(fileOf('notes'))).toBe(false);
  });

  it('checks every name before deleting any, and takes whole names only', async () => {
    const result = await run(['sessions', 'delete', 'work', 'nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no saved conversation named "nope"; nothing was deleted');
    expect(existsSync(fileOf('work'))).toBe(true);
    expect((await run(['sessions', 'delete', 'no'])).exitCode).toBe(2);
    expect(existsSync(fileOf('notes'))).toBe(true);
  });

  it('on a terminal asks first: anything but y keeps it (exit 1), y deletes', async () => {
    const kept = await run(['sessions', 'delete', 'work'], answering('n\r'));
    expect(kept.exitCode).toBe(1);
    expect(kept.stderr).toContain('Delete the conversation work?');
    expect(kept.stderr).toContain('svc: nothing was deleted\n');
    expect(existsSync(fileOf('work'))).toBe(true);
    const gone = await run(['sessions', 'delete', 'work', 'notes'], answering('y\r'));
    expect(gone.exitCode, gone.stderr).toBe(0);
    expect(gone.stderr).toContain('Delete 2 conversations: work, notes?');
    expect(existsSync(fileOf('work')) || existsSync(fileOf('notes'))).toBe(false);
  });

  it('--yes deletes on a terminal without asking', async () => {
    const result = await run(['sessions', 'delete', '--yes', 'work'], { stdinKind: 'tty', stderrIsTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('deleted work\n');
  });
});

describe('svc roles delete (rm) and svc profiles delete (rm)', () => {
  it('roles: asks on a terminal, not with --yes nor in a script', async () => {
    for (const name of ['a', 'b', 'c']) expect((await run(['roles', 'set', name, '--system', 'Be brief.'])).exitCode).toBe(0);
    const kept = await run(['roles', 'delete', 'a'], answering('n\r'));
    expect([kept.exitCode, kept.stderr.includes('Delete the role a?')]).toEqual([1, true]);
    expect((await run(['roles', 'list'])).stdout).toMatch(/^a\t/m);
    expect((await run(['roles', 'rm', 'a'], answering('y\r'))).exitCode).toBe(0);
    expect((await run(['roles', 'rm', '--yes', 'b'], { stdinKind: 'tty', stderrIsTTY: true })).stderr).toBe('svc: deleted role "b"\n');
    expect((await run(['roles', 'delete', 'c'])).stderr).toBe('svc: deleted role "c"\n');
    expect((await run(['roles', 'list'])).stdout).not.toMatch(/^[abc]\t/m);
  });

  it('profiles: deletes the folder, settings and key; the default chosen goes back to "default"', async () => {
    expect((await run(['config', 'set', '--profile', 'work', 'baseUrl', 'http://127.0.0.1:8080'])).exitCode).toBe(0);
    expect((await run(['auth', 'login', '--profile', 'work', '--with-key'], { stdin: 'sk-work-0123456789abcdef' })).exitCode).toBe(0);
    expect((await run(['profiles', 'use', 'work'])).exitCode).toBe(0);
    const dir = join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'profiles', 'work');
    expect(existsSync(join(dir, 'credentials.json'))).toBe(true);
    const kept = await run(['profiles', 'delete', 'work'], answering('n\r'));
    expect([kept.exitCode, kept.stderr.includes('Delete the profile work?'), existsSync(dir)]).toEqual([1, true, true]);
    const gone = await run(['profiles', 'rm', 'work']);
    expect(gone.exitCode, gone.stderr).toBe(0);
    expect(gone.stderr).toBe('svc: deleted profile "work"\nsvc: it was the default profile; "default" is the default again\n');
    expect(existsSync(dir)).toBe(false);
    expect((await run(['profiles', 'list'])).stdout).toBe('default\t-\tno key\tdefault\n');
  });

  it('profiles: "default" and unknown names are exit 2, and nothing is deleted', async () => {
    expect((await run(['config', 'set', '--profile', 'work', 'baseUrl', 'http://127.0.0.1:8080'])).exitCode).toBe(0);
    const refused = await run(['profiles', 'delete', 'work', 'default']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('the default profile is the config folder itself and cannot be deleted');
    const unknown = await run(['profiles', 'delete', 'work', 'nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no profile named "nope"');
    expect((await run(['profiles', 'list'])).stdout).toContain('work\thttp://127.0.0.1:8080');
  });
});
