/**
 * The compile cache the launcher turns on (bin/svc.js): Node's own (module.enableCompileCache, Node
 * 22.8 and later), kept in $XDG_CACHE_HOME/svc/compile-cache/. Node rewrites a cache file only when
 * it did not take it, so a file left untouched by a second run is one that was used. A damaged or
 * unwritable cache must never change what svc does; Node 20 runs without one.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { makeSandbox, svc, type Sandbox, type SvcResult } from '../helpers/run-svc.js';

const KEY = 'cache-key-0123456789abcdef';
const setup = useEmulatorSandbox(KEY);
const HAS_COMPILE_CACHE = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

// Temperature 0: the emulator gives the same reply to the same request, so two runs can be compared.
const CHAT = ['chat', '--no-save', '-t', '0', 'hello there'];
/** A command that loads few chunks (and prints the same each time), where which chunks does not matter. */
const LIGHT = ['config', 'list'];

/** `test` in a sandbox of its own (its own cache folder) against the file's emulator, removed afterwards. */
async function inFreshSandbox(test: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = makeSandbox({ SVC_BASE_URL: setup.emulator.baseUrl, SVC_API_KEY: KEY });
  try {
    await test(sandbox);
  } finally {
    sandbox.cleanup();
  }
}

function cacheRoot(sandbox: Sandbox): string {
  return join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'compile-cache');
}

/** Every file under `root` (Node keeps a folder per Node version in it), with its bytes and time. */
function snapshot(root: string): Map<string, { bytes: Buffer; mtime: number }> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).map((name) => join(root, name)).filter((path) => statSync(path).isFile());
  return new Map(files.map((path) => [relative(root, path), { bytes: readFileSync(path), mtime: statSync(path).mtimeMs }]));
}

/** A second run did what the first did, and said nothing more. */
function expectSameRun(first: SvcResult, second: SvcResult): void {
  expect(second.exitCode, second.stderr).toBe(0);
  expect(second.stdout).toBe(first.stdout);
  expect(second.stderr).toBe('');
}

describe.runIf(HAS_COMPILE_CACHE)('the compile cache', () => {
  it('is written by a first run into an owner-only folder and taken as it is by the next', () =>
    inFreshSandbox(async (sandbox) => {
      const first = await svc(CHAT, sandbox);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(statSync(cacheRoot(sandbox)).mode & 0o777).toBe(0o700);
      const written = snapshot(cacheRoot(sandbox));
      expect(written.size).toBeGreaterThan(3);

      expectSameRun(first, await svc(CHAT, sandbox));
      expect(snapshot(cacheRoot(sandbox))).toEqual(written);
    }));

  it('a damaged cache file (bytes flipped, cut short, or words) is compiled over and replaced, with nothing else changed', () =>
    inFreshSandbox(async (sandbox) => {
      const first = await svc(LIGHT, sandbox);
      expect(first.exitCode, first.stderr).toBe(0);
      // The three largest: the bundle's chunks, which every run of this command loads.
      const [flipped, cut, words] = [...snapshot(cacheRoot(sandbox))].sort(([, a], [, b]) => b.bytes.length - a.bytes.length).map(([name]) => join(cacheRoot(sandbox), name));
      const damaged = new Map<string, Buffer>();
      const bytes = readFileSync(flipped!);
      for (let i = 1000; i < 1064; i++) bytes[i]! ^= 0xff;
      damaged.set(flipped!, bytes);
      damaged.set(cut!, readFileSync(cut!).subarray(0, 100));
      damaged.set(words!, Buffer.from('not V8 bytecode at all, just words '.repeat(200)));
      for (const [path, content] of damaged) writeFileSync(path, content);

      expectSameRun(first, await svc(LIGHT, sandbox));
      for (const [path, content] of damaged) expect(readFileSync(path).equals(content), path).toBe(false);
      // And the replacements are ones Node takes.
      const before = snapshot(cacheRoot(sandbox));
      expectSameRun(first, await svc(LIGHT, sandbox));
      expect(snapshot(cacheRoot(sandbox))).toEqual(before);
    }));

  it("runs with and without Node's own options (NODE_OPTIONS with a V8 flag) keep each other's caches", () =>
    inFreshSandbox(async (sandbox) => {
      const withOptions = { ...sandbox, env: { ...sandbox.env, NODE_OPTIONS: '--max-semi-space-size=4' } };
      const first = await svc(LIGHT, sandbox);
      expectSameRun(first, await svc(LIGHT, withOptions));
      const written = snapshot(cacheRoot(sandbox));
      // Each set taken as it is by its next run, in turn: none rewrites the other's.
      expectSameRun(first, await svc(LIGHT, sandbox));
      expectSameRun(first, await svc(LIGHT, withOptions));
      expect(snapshot(cacheRoot(sandbox))).toEqual(written);
    }));

  it('holds across a batch, which sets a V8 flag as it starts (keepHeapSteady in src/commands/batch/send.ts)', () =>
    inFreshSandbox(async (sandbox) => {
      const input = join(sandbox.home, 'lines.jsonl');
      writeFileSync(input, `${JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'hi' }] } })}\n`);
      const run = (out: string) => svc(['batch', input, '-o', join(sandbox.home, out)], sandbox);
      expect((await run('one.jsonl')).exitCode).toBe(0);
      const written = snapshot(cacheRoot(sandbox));
      expect(written.size).toBeGreaterThan(0);
      expect((await run('two.jsonl')).exitCode).toBe(0);
      expect(snapshot(cacheRoot(sandbox))).toEqual(written);
    }));
});

describe('without a usable cache folder', () => {
  it('a cache folder that cannot be made changes nothing', () =>
    inFreshSandbox(async (sandbox) => {
      // XDG_CACHE_HOME names a file: no folder can be made under it.
      const blocked = join(sandbox.home, 'a-file');
      writeFileSync(blocked, 'x');
      const result = await svc(CHAT, { ...sandbox, env: { ...sandbox.env, XDG_CACHE_HOME: blocked } });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
      expect(result.stderr).toBe('');
      expect(readFileSync(blocked, 'utf8')).toBe('x');
    }));

  it.runIf(HAS_COMPILE_CACHE)("a file where Node keeps this version's caches changes nothing", () =>
    inFreshSandbox(async (sandbox) => {
      const first = await svc(LIGHT, sandbox);
      expect(first.exitCode, first.stderr).toBe(0);
      // Node keeps one folder per Node version under svc's: that name, taken by a file.
      const [versionFolder, ...others] = readdirSync(cacheRoot(sandbox));
      expect(others).toEqual([]);
      const blocked = join(cacheRoot(sandbox), versionFolder!);
      rmSync(blocked, { recursive: true });
      writeFileSync(blocked, 'x');
      expectSameRun(first, await svc(LIGHT, sandbox));
      expect(readFileSync(blocked, 'utf8')).toBe('x');
    }));

  it.runIf(!HAS_COMPILE_CACHE)('on a Node without a compile cache (Node 20), svc runs as usual and makes no cache folder', () =>
    inFreshSandbox(async (sandbox) => {
      const result = await svc(CHAT, sandbox);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
      expect(() => readdirSync(cacheRoot(sandbox))).toThrow(/ENOENT/);
    }));
});
