/**
 * What a command loads. Start-up is a budget (bench/), and these are the big savings a change
 * could silently undo: undici (whose public entry brings fetch, WebSocket and Node's own copy of
 * undici with it) loads only for a command that sends a request, the Markdown renderer and
 * highlight.js only when stdout is a terminal, and stdin is not opened by a command that does not
 * read it. Checked by what the process loaded, not by timing.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN, svc } from '../helpers/run-svc.js';

const KEY = 'lean-key-0123456789abcdef';
const PRELOAD = fileURLToPath(new URL('../helpers/report-loaded-modules.cjs', import.meta.url));
const FILES_PRELOAD = fileURLToPath(new URL('../helpers/report-loaded-files.cjs', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
/** Text only the renderer's code holds, and text only highlight.js's holds. */
const RENDERER_MARK = 'createStreamingRenderer';
const HIGHLIGHT_MARK = 'registerLanguage';

const setup = useEmulatorSandbox(KEY);

/** The contents of every bundle file a run of svc imported (the list is written by FILES_PRELOAD). */
function loadedBundleCode(listFile: string): string[] {
  const urls = new Set(readFileSync(listFile, 'utf8').split('\n').filter((url) => url.startsWith('file:')));
  return [...urls].map((url) => fileURLToPath(url)).filter((path) => path.startsWith(BUNDLE)).map((path) => readFileSync(path, 'utf8'));
}

/** The bundle files `svc ...args` loaded, in a pipe: their contents. */
async function bundleCodeLoadedBy(args: string[]): Promise<string[]> {
  const list = join(setup.sandbox.home, 'loaded-files.txt');
  rmSync(list, { force: true });
  const result = await svc(args, { ...setup.sandbox, env: { ...setup.sandbox.env, NODE_OPTIONS: `--require ${FILES_PRELOAD}`, SVC_TEST_FILES_OUT: list } });
  expect(result.exitCode, result.stderr).toBe(0);
  return loadedBundleCode(list);
}

async function builtinsLoadedBy(args: string[]): Promise<string[]> {
  const out = join(setup.sandbox.home, 'modules.txt');
  const result = await svc(args, { ...setup.sandbox, env: { ...setup.sandbox.env, NODE_OPTIONS: `--require ${PRELOAD}`, SVC_TEST_MODULES_OUT: out } });
  expect(result.exitCode, result.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

/** A text only undici's code holds (the diagnostics channel of a request it makes). */
const UNDICI_MARK = 'undici:request:create';

describe('undici loads only for a command that sends', () => {
  it('the mark is in the bundle, and a chat loads it (the control for the cases below)', async () => {
    expect(readdirSync(BUNDLE).some((name) => name.endsWith('.cjs') && readFileSync(join(BUNDLE, name), 'utf8').includes(UNDICI_MARK))).toBe(true);
    const code = await bundleCodeLoadedBy(['chat', '--no-save', 'what loads?']);
    expect(code.some((text) => text.includes(UNDICI_MARK))).toBe(true);
  });

  it('listing, settings, completion and a dry run load none of it', async () => {
    for (const args of [['sessions', 'list'], ['config', 'list'], ['completion', 'bash'], ['chat', '--dry-run', 'what loads?']]) {
      const code = await bundleCodeLoadedBy(args);
      // The command's own code was recorded (the hook works) ...
      expect(code.length, args.join(' ')).toBeGreaterThan(2);
      // ... and nothing of undici's.
      expect(code.filter((text) => text.includes(UNDICI_MARK)), args.join(' ')).toEqual([]);
    }
  });
});

describe('stdin is looked at, not opened (src/terminal/io.ts)', () => {
  it('a command with /dev/null as stdin loads neither node:tty nor Node\'s file streams', async () => {
    // svc() gives the process /dev/null as stdin.
    const loaded = await builtinsLoadedBy(['sessions', 'list']);
    expect(loaded).toContain('fs'); // the preload works
    expect(loaded).not.toContain('tty');
    expect(loaded).not.toContain('internal/fs/streams');
  });
});

describe('the bundle', () => {
  it('no chunk requires the entry chunk (it runs the program as it loads)', () => {
    const requiring = readdirSync(BUNDLE)
      .filter((name) => name.endsWith('.cjs') && name !== 'cli.cjs')
      .filter((name) => readFileSync(join(BUNDLE, name), 'utf8').includes('require("./cli.cjs")'));
    expect(requiring).toEqual([]);
  });
});


describe('the Markdown renderer loads only for a terminal', () => {
  const prompt = 'write a python function that reverses a string';

  it('the marks are in the bundle, so their absence below means something', () => {
    const bundle = readdirSync(BUNDLE).filter((name) => name.endsWith('.cjs')).map((name) => readFileSync(join(BUNDLE, name), 'utf8'));
    expect(bundle.some((code) => code.includes(RENDERER_MARK))).toBe(true);
    expect(bundle.some((code) => code.includes(HIGHLIGHT_MARK))).toBe(true);
  });

  it('in a pipe, a chat whose reply is Markdown loads neither the renderer nor highlight.js', async () => {
    const list = join(setup.sandbox.home, 'pipe-files.txt');
    const env = { ...setup.sandbox.env, NODE_OPTIONS: `--require ${FILES_PRELOAD}`, SVC_TEST_FILES_OUT: list };
    const result = await svc(['chat', '--no-save', prompt], { ...setup.sandbox, env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('```python');
    const code = loadedBundleCode(list);
    // The chat's own code was recorded (the hook works) ...
    expect(code.some((text) => text.includes('waiting for the service'))).toBe(true);
    // ... and nothing of the renderer's.
    expect(code.filter((text) => text.includes(RENDERER_MARK) || text.includes(HIGHLIGHT_MARK))).toEqual([]);
  });

  it('on a terminal the same chat loads both (the control for the case above)', async () => {
    const list = join(setup.sandbox.home, 'tty-files.txt');
    rmSync(list, { force: true });
    // util-linux `script` gives svc a pseudo-terminal as stdout.
    const env = { ...setup.sandbox.env, TERM: 'xterm-256color', NODE_OPTIONS: `--require ${FILES_PRELOAD}`, SVC_TEST_FILES_OUT: list };
    const result = await execa('script', ['-qec', `node "${SVC_BIN}" chat --no-save "${prompt}"`, '/dev/null'], { env, extendEnv: false, reject: false, timeout: 20_000, stdin: 'ignore' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('```');
    const code = loadedBundleCode(list);
    expect(code.some((text) => text.includes(RENDERER_MARK))).toBe(true);
    expect(code.some((text) => text.includes(HIGHLIGHT_MARK))).toBe(true);
  });
});
