/**
 * The launcher's code cache (bin/code-cache.js): the bytecode of the bundle's chunks kept in
 * $XDG_CACHE_HOME/svc/code/ and taken back by V8 at the next start. Taken means V8 accepted it:
 * a cache it refuses is compiled over and written again, so a file left untouched by a second
 * run is one that was used. A damaged or unwritable cache must never change what svc does.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT } from '../../src/commands/batch/steady-heap.js';
import { createFactory } from '../../src/factory.js';
import { buildProgram } from '../../src/program.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { makeSandbox, svc, type Sandbox, type SvcResult } from '../helpers/run-svc.js';

const KEY = 'cache-key-0123456789abcdef';
const setup = useEmulatorSandbox(KEY);
const { flagsFor } = createRequire(import.meta.url)('../../bin/v8-flags.js') as { flagsFor: (args: string[]) => { flags: string[]; mode: string } };

/** A sandbox of its own (its own cache folder) against the file's emulator. */
function freshSandbox(extra: Record<string, string> = {}): Sandbox {
  return makeSandbox({ SVC_BASE_URL: setup.emulator.baseUrl, SVC_API_KEY: KEY, ...extra });
}

function cacheFolder(sandbox: Sandbox, mode: string): string {
  const code = join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'code');
  const [folder, ...others] = readdirSync(code).filter((name) => name.endsWith(`-${mode}`));
  expect(others).toEqual([]);
  return join(code, folder!);
}

/** Each cache file with its bytes and its modification time. */
function snapshot(folder: string): Map<string, { bytes: Buffer; mtime: number }> {
  return new Map(readdirSync(folder).map((name) => [name, { bytes: readFileSync(join(folder, name)), mtime: statSync(join(folder, name)).mtimeMs }]));
}

// Temperature 0: the emulator gives the same reply to the same request, so two runs can be compared.
const CHAT = ['chat', '--no-save', '-t', '0', 'hello there'];
/** A command that loads few chunks (and prints the same each time), where which chunks does not matter. */
const LIGHT = ['config', 'list'];

/** `test` in a sandbox of its own, removed afterwards. */
async function inFreshSandbox(test: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = freshSandbox();
  try {
    await test(sandbox);
  } finally {
    sandbox.cleanup();
  }
}

/** The cache file of the chunk whose name starts with `chunk` (as `base-`). */
function cacheOf(folder: string, chunk: string): string {
  return join(folder, readdirSync(folder).find((name) => name.startsWith(chunk))!);
}

/** A second run did what the first did, and said nothing more. */
function expectSameRun(first: SvcResult, second: SvcResult): void {
  expect(second.exitCode, second.stderr).toBe(0);
  expect(second.stdout).toBe(first.stdout);
  expect(second.stderr).toBe('');
}

describe('the code cache', () => {
  it('is written owner-only by a first run and taken as it is by the next', () =>
    inFreshSandbox(async (sandbox) => {
      const first = await svc(CHAT, sandbox);
      expect(first.exitCode, first.stderr).toBe(0);
      const folder = cacheFolder(sandbox, flagsFor(CHAT).mode);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const written = snapshot(folder);
      // The chat's own chunks, undici's among them.
      expect([...written.keys()].some((name) => name.startsWith('undici-'))).toBe(true);
      for (const name of written.keys()) expect(statSync(join(folder, name)).mode & 0o777, name).toBe(0o600);

      expectSameRun(first, await svc(CHAT, sandbox));
      expect(snapshot(folder)).toEqual(written);
    }));

  it('a damaged cache file, of the right length or not, is compiled over and replaced, with nothing else changed', () =>
    inFreshSandbox(async (sandbox) => {
      // A light command: any chunk's cache will do.
      const first = await svc(LIGHT, sandbox);
      const folder = cacheFolder(sandbox, flagsFor(LIGHT).mode);
      // Bytes flipped in place (V8 alone would take such a file and crash on it), and a file of words.
      const flipped = cacheOf(folder, 'base-');
      const bytes = readFileSync(flipped);
      for (let i = 5000; i < 5064; i++) bytes[i]! ^= 0xff;
      writeFileSync(flipped, bytes);
      const words = cacheOf(folder, 'commander-');
      const garbage = Buffer.from('not V8 bytecode at all, just words '.repeat(200));
      writeFileSync(words, garbage);

      expectSameRun(first, await svc(LIGHT, sandbox));
      expect(readFileSync(flipped).equals(bytes)).toBe(false);
      expect(readFileSync(words).equals(garbage)).toBe(false);
      // And the replacements are ones V8 takes.
      const before = snapshot(folder);
      await svc(LIGHT, sandbox);
      expect(snapshot(folder)).toEqual(before);
    }));

  it("Node's own options (NODE_OPTIONS with a V8 flag) get a folder of their own: runs with and without them keep each other's caches", () =>
    inFreshSandbox(async (sandbox) => {
      const first = await svc(LIGHT, sandbox);
      expect(first.exitCode, first.stderr).toBe(0);
      const plain = cacheFolder(sandbox, flagsFor(LIGHT).mode);
      const plainCaches = snapshot(plain);
      const withOptions = { ...sandbox, env: { ...sandbox.env, NODE_OPTIONS: '--max-semi-space-size=4' } };
      expectSameRun(first, await svc(LIGHT, withOptions));
      // V8 would refuse the plain caches under that flag and rewrite them: untouched instead.
      expect(snapshot(plain)).toEqual(plainCaches);
      const code = join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'code');
      const [own, ...others] = readdirSync(code).filter((name) => join(code, name) !== plain);
      expect(others).toEqual([]);
      const ownCaches = snapshot(join(code, own!));
      expect(ownCaches.size).toBe(plainCaches.size);
      // And each set is taken as it is by its next run, in turn.
      expectSameRun(first, await svc(LIGHT, sandbox));
      expectSameRun(first, await svc(LIGHT, withOptions));
      expect(snapshot(plain)).toEqual(plainCaches);
      expect(snapshot(join(code, own!))).toEqual(ownCaches);
    }));

  it('a run that writes tidies up: caches of chunks no longer there, old leftovers, and folders beyond the 15 most recent or unused for 30 days', () =>
    inFreshSandbox(async (sandbox) => {
      const code = join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'code');
      mkdirSync(code, { recursive: true });
      const day = 24 * 60 * 60;
      const now = Date.now() / 1000;
      // Twenty folders of other Node options, written one a day over twenty days, and one of a
      // Node version last used 40 days ago.
      const others = Array.from({ length: 20 }, (_, n) => `other-${String(n).padStart(2, '0')}`);
      others.forEach((name, n) => {
        mkdirSync(join(code, name));
        writeFileSync(join(code, name, 'x.v8'), 'x');
        utimesSync(join(code, name), now - n * day, now - n * day);
      });
      mkdirSync(join(code, 'old-node'));
      utimesSync(join(code, 'old-node'), now - 40 * day, now - 40 * day);

      const first = await svc(LIGHT, sandbox);
      expect(first.exitCode, first.stderr).toBe(0);
      const plain = cacheFolder(sandbox, flagsFor(LIGHT).mode);
      // The 15 most recently written stay beside the one in use; the rest and the old one go.
      expect(readdirSync(code).filter((name) => join(code, name) !== plain).sort()).toEqual(others.slice(0, 15));

      // In the folder in use: a cache of a chunk this build does not have, a leftover write of
      // two days ago (removed) and one of now (another run may be writing it: kept).
      const gone = join(plain, 'gone-AbCdEfGh.cjs.100.1700000000000.v8');
      const oldTemporary = join(plain, 'base-x.cjs.1.2.v8.123.tmp');
      const newTemporary = join(plain, 'base-x.cjs.1.2.v8.456.tmp');
      for (const path of [gone, oldTemporary, newTemporary]) writeFileSync(path, 'x');
      utimesSync(oldTemporary, now - 2 * day, now - 2 * day);
      // One real cache removed, so the next run writes (and tidies).
      const written = snapshot(plain);
      const real = [...written.keys()].find((name) => name.endsWith('.v8') && name.startsWith('main-'))!;
      rmSync(join(plain, real));
      const second = await svc(LIGHT, sandbox);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(existsSync(join(plain, real))).toBe(true);
      expect(existsSync(gone)).toBe(false);
      expect(existsSync(oldTemporary)).toBe(false);
      expect(existsSync(newTemporary)).toBe(true);
    }));

  it('what is not a plain file at a cache path is not read (a pipe would block)', () =>
    inFreshSandbox(async (sandbox) => {
      const first = await svc(LIGHT, sandbox);
      const victim = cacheOf(cacheFolder(sandbox, flagsFor(LIGHT).mode), 'base-');
      rmSync(victim);
      await execa('mkfifo', [victim]);
      expectSameRun(first, await svc(LIGHT, sandbox));
    }));

  it('a command that fails writes none (it leaves at once)', () =>
    inFreshSandbox(async (sandbox) => {
      const refused = await svc(['chat', '--no-save', '--temperature', 'hot', 'hi'], sandbox);
      expect(refused.exitCode).toBe(2);
      expect(() => readdirSync(join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'code'))).toThrow(/ENOENT/);
    }));

  it('a cache folder that cannot be made changes nothing', () =>
    inFreshSandbox(async (sandbox) => {
      // XDG_CACHE_HOME names a file: no folder can be made under it.
      const blocked = join(sandbox.home, 'a-file');
      writeFileSync(blocked, 'x');
      const env = { ...sandbox.env, XDG_CACHE_HOME: blocked };
      const result = await svc(CHAT, { ...sandbox, env });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
      expect(result.stderr).toBe('');
      expect(readFileSync(blocked, 'utf8')).toBe('x');
    }));

  it('holds across a batch, whose flags the launcher sets before anything loads', async () => {
    // The launcher's flags are the ones the modules set for themselves (the same values), or a
    // cache written at exit would be refused at every start; V8's checksums are on for all.
    expect(flagsFor(['batch', 'in.jsonl']).flags).toEqual(['--verify-snapshot-checksum', '--liftoff-only', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    expect(flagsFor(CHAT).flags).toEqual(['--verify-snapshot-checksum', '--liftoff-only']);
    expect(flagsFor(['emulator']).flags).toEqual(['--verify-snapshot-checksum']);
    // The command is found after the root's own options, the only ones before it.
    expect(flagsFor(['--plain', '--profile', 'work', 'batch', 'in.jsonl']).flags).toEqual(flagsFor(['batch']).flags);
    expect(flagsFor(['--profile=work', 'emulator']).flags).toEqual(flagsFor(['emulator']).flags);
    const io = { env: {}, stdout: { write: () => true }, stderr: { write: () => true } } as unknown as Parameters<typeof createFactory>[0];
    const program = buildProgram({ factory: createFactory(io), signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) });
    expect(program.options.filter((option) => option.required || option.optional).map((option) => option.long)).toEqual(['--profile']);
    await inFreshSandbox(async (sandbox) => {
      const input = join(sandbox.home, 'lines.jsonl');
      writeFileSync(input, `${JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'hi' }] } })}\n`);
      const run = (out: string) => svc(['batch', input, '-o', join(sandbox.home, out)], sandbox);
      expect((await run('one.jsonl')).exitCode).toBe(0);
      const folder = cacheFolder(sandbox, flagsFor(['batch']).mode);
      const written = snapshot(folder);
      expect(written.size).toBeGreaterThan(0);
      expect((await run('two.jsonl')).exitCode).toBe(0);
      expect(snapshot(folder)).toEqual(written);
    });
  });
});
