/**
 * What a chat loads. Start-up is a budget (bench/), and these are the big savings a change
 * could silently undo: undici's parts are loaded one by one (its index drags in fetch, and with
 * it Node's own copy of undici), its HTTP/2 code (node:http2, node:tls) loads only if a
 * server ever negotiates HTTP/2, and the Markdown renderer and highlight.js load only when
 * stdout is a terminal. Checked by what the process loaded, not by timing.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

async function builtinsLoadedBy(args: string[]): Promise<string[]> {
  const out = join(setup.sandbox.home, 'modules.txt');
  const result = await svc(args, { ...setup.sandbox, env: { ...setup.sandbox.env, NODE_OPTIONS: `--require ${PRELOAD}`, SVC_TEST_MODULES_OUT: out } });
  expect(result.exitCode, result.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

describe('a streamed chat loads only what it uses', () => {
  it('uses undici for HTTP, without Node\'s bundled undici, HTTP/2 or TLS', async () => {
    const loaded = await builtinsLoadedBy(['chat', '--no-save', 'what loads?']);
    // The preload works and the request went over a socket: these must be there.
    expect(loaded).toContain('net');
    expect(loaded).toContain('http');
    expect(loaded).not.toContain('internal/deps/undici/undici');
    expect(loaded).not.toContain('http2');
    expect(loaded).not.toContain('tls');
    expect(loaded).not.toContain('child_process');
    // undici's invariant checks get node:assert only if one fails (scripts/bundle.mjs, lazy-undici-assert).
    expect(loaded).not.toContain('assert');
  });

  it('undici uses node:assert only by calling it, all the bundle hands it', () => {
    const lib = join(dirname(createRequire(import.meta.url).resolve('undici')), 'lib');
    const users = readdirSync(lib, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(lib, name), 'utf8'))
      .filter((code) => /require\(['"]node:assert['"]\)/.test(code));
    expect(users.length).toBeGreaterThan(10);
    for (const code of users) {
      const declaration = "const assert = require('node:assert')\n";
      expect(code).toContain(declaration);
      // Only `assert(...)`: no method (assert.equal...), and the function never handed on.
      expect(code.replace(declaration, '').match(/\bassert\b(?!\s*\()/g)).toBeNull();
    }
  });
});

describe('node:crypto stays unloaded where nothing needs it (storage/temp-name.ts, batch/records.ts)', () => {
  // About 2.5 ms of start-up, for random names and ids that Math.random serves as well.
  it('a chat that saves its conversation, and a batch of chat lines, load no crypto', async () => {
    const chat = await builtinsLoadedBy(['chat', 'what loads?']);
    expect(chat).toContain('net'); // the preload works and the request was made
    expect(chat).not.toContain('crypto');
    writeFileSync(join(setup.sandbox.home, 'lines.jsonl'), `${JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'hi' }] } })}\n`);
    const batch = await builtinsLoadedBy(['batch', join(setup.sandbox.home, 'lines.jsonl'), '-o', join(setup.sandbox.home, 'out.jsonl')]);
    expect(readFileSync(join(setup.sandbox.home, 'out.jsonl'), 'utf8')).toMatch(/"id":"batch_req_[0-9a-f]{24}"/);
    expect(batch).not.toContain('crypto');
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

describe('commander gets node:child_process only when it spawns (scripts/bundle.mjs)', () => {
  it('a listing loads no child_process', async () => {
    const loaded = await builtinsLoadedBy(['sessions', 'list']);
    expect(loaded).toContain('fs'); // the preload works
    expect(loaded).not.toContain('child_process');
  });

  it('commander uses nothing of it but spawn, the one function the bundle hands it', () => {
    const code = readFileSync(join(dirname(createRequire(import.meta.url).resolve('commander')), 'lib', 'command.js'), 'utf8');
    const used = new Set([...code.matchAll(/childProcess\.(\w+)/g)].map((match) => match[1]));
    expect([...used]).toEqual(['spawn']);
  });
});

/** The contents of every bundle file a run of svc imported (the list is written by FILES_PRELOAD). */
function loadedBundleCode(listFile: string): string[] {
  const urls = new Set(readFileSync(listFile, 'utf8').split('\n').filter((url) => url.startsWith('file:')));
  return [...urls].map((url) => fileURLToPath(url)).filter((path) => path.startsWith(BUNDLE)).map((path) => readFileSync(path, 'utf8'));
}

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
    // With no proxy set, undici's proxy-aware dispatcher is not loaded either (src/api/dispatcher.ts).
    expect(readFileSync(list, 'utf8')).not.toContain('env-http-proxy-agent');
    expect(readdirSync(BUNDLE).some((file) => file.startsWith('env-http-proxy-agent'))).toBe(true);
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
