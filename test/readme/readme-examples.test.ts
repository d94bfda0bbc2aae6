/**
 * Every command in the `sh` blocks of the README and of each guide in docs/ is run here, against
 * the emulator, so the documentation cannot rot: file by file, each in its own order and in a
 * home folder of its own (a guide's later lines use what its earlier ones made, never what
 * another file made). A block written as `bash` is shown, not run (docs/development.md). A line with any shell around svc (a pipe, a redirection, a variable,
 * an environment prefix) runs in bash with a `svc` on PATH, as a user would type it; interactive
 * ones (a session, a login, a chat with tools and none allowed, whose call is answered y) run in
 * a real terminal (tmux); `svc emulator` runs in the background for the lines after
 * it. A line that is one svc command and nothing else has its words split by bash and runs
 * in-process (main(argv, io)): a process of its own would add a Node start-up and nothing the
 * line shows (the launcher and PATH are the other lines', and test/e2e's, to show). The npm
 * lines are what CI itself runs (.ci/run) and the demo has its own test below.
 */
import { encodeJpeg } from '@svc/emulator/images';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { runSvc } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { isBareCommand } from '../helpers/shell-lines.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'readme-key-0123456789abcdef';

/** The `sh` blocks of a Markdown file, each as its logical lines (continuations joined). */
export function shellBlocks(markdown: string): string[][] {
  const blocks: string[][] = [];
  const pattern = /```sh\n([\s\S]*?)```/g;
  for (let match = pattern.exec(markdown); match; match = pattern.exec(markdown)) {
    const lines = match[1]!.replace(/\\\n\s*/g, ' ').split('\n').filter((line) => line.trim() !== '');
    blocks.push(lines);
  }
  return blocks;
}

type Kind = 'npm' | 'emulator' | 'repl' | 'repl-piped' | 'login' | 'tool-ask' | 'bare' | 'plain';

/** How a line has to be run. Anything not listed as interactive must work without a terminal. */
export function kindOf(line: string): Kind {
  const command = line.replace(/\s+#.*$/, '').trim();
  if (/^npm /.test(command)) return 'npm';
  if (/^svc emulator\b/.test(command)) return 'emulator';
  if (/^svc chat(\s+(-c|--continue|--session\s+\S+|--tools\s+\S+))*$/.test(command)) return 'repl';
  // A one-shot chat offering tools with none allowed asks on the terminal before a call runs.
  if (/^svc chat\b.*\s--tools\b/.test(command) && !/\s(--allow|--dry-run)\b/.test(command)) return 'tool-ask';
  if (/\|\s*svc chat -i\b/.test(command)) return 'repl-piped';
  if (/^svc auth login$/.test(command)) return 'login';
  if (isBareCommand(line)) return 'bare';
  return 'plain';
}

const hasTmux = await tmuxAvailable();
let emulator: RunningEmulator;

beforeAll(async () => {
  // The keys the login lines give ($KEY, test-key) are good ones: `svc auth login` checks a key before storing it.
  emulator = await startEmulator({ apiKeys: [KEY, 'sk-readme-0123456789abcdef', 'test-key'] });
});
afterAll(() => emulator.close());

/** Where one file's examples run: its own home folder, and the environment the lines see. */
interface Place {
  sandbox: Sandbox;
  env: Record<string, string>;
}

/** A home with `svc` on PATH and what the examples read: a build log, notes, a photo, a repository with a staged change. */
async function makePlace(): Promise<Place> {
  const sandbox = makeSandbox();
  const bin = join(sandbox.home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${SVC_BIN}" "$@"\n`, { mode: 0o755 });
  // The MCP servers docs/tools.md starts are devDependencies, on PATH as if installed globally.
  const env = { ...sandbox.env, PATH: `${bin}:${join(root, 'node_modules', '.bin')}:${sandbox.env.PATH}`, SVC_BASE_URL: emulator.baseUrl, SVC_API_KEY: KEY, KEY: 'sk-readme-0123456789abcdef', SHELL: '/bin/bash' };
  writeFileSync(join(sandbox.home, 'build.log'), 'error TS2322: Type "string" is not assignable to type "number".\n');
  writeFileSync(join(sandbox.home, 'notes.md'), '# Notes\n- ship on Friday\n- ask about the budget\n');
  // The picture `svc chat -f photo.jpg` asks about: a small blue square, a real JPEG.
  writeFileSync(join(sandbox.home, 'photo.jpg'), await encodeJpeg(new Uint8Array(16 * 16 * 4).map((_, i) => [30, 30, 220, 255][i % 4]!), 16, 16));
  await execa('sh', ['-c', 'git init -q . && echo "hello" > hello.txt && git add hello.txt'], { cwd: sandbox.home, env });
  return { sandbox, env };
}

async function runPlain({ sandbox, env }: Place, script: string): Promise<void> {
  const result = await execa('bash', ['-c', script], { cwd: sandbox.home, env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 30_000 });
  expect(result.exitCode, `${script}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
  expect(hasStackTrace(result.stderr)).toBe(false);
}

/** A bare command: bash splits its words (quotes, escapes, the comment), main() runs them. */
async function runBare({ sandbox, env }: Place, line: string): Promise<void> {
  const split = await execa('bash', ['-c', `printf '%s\\0' ${line.replace(/^svc\s+/, '')}`], { cwd: sandbox.home, env, extendEnv: false, stdin: 'ignore' });
  const words = split.stdout.split('\0').slice(0, -1);
  const result = await runSvc(words, undefined, { env, cwd: sandbox.home });
  expect(result.exitCode, `${line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
  expect(hasStackTrace(result.stderr)).toBe(false);
}

async function runInTerminal({ sandbox, env }: Place, line: string, kind: Kind): Promise<void> {
  const term = await startTmux(line, env, sandbox.home);
  try {
    if (kind === 'login') {
      await term.waitFor('API key');
      await term.type(env.KEY!, true);
    } else if (kind === 'tool-ask') {
      await term.waitFor(/run it\? y yes .* › $/m, 20_000);
      await term.press('y');
    } else {
      await term.waitFor(kind === 'repl-piped' ? '(sent the prompt' : '/help for commands');
      if (kind === 'repl') await term.type('hello there', true);
      await term.waitFor(/\n› $/m, 20_000);
      await term.press('C-d');
    }
    await term.waitFor('[exit 0]', 20_000);
  } finally {
    await term.kill();
  }
}

/** The README first, then the guides, each read once. */
const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const examples = files.map((file) => ({ file, blocks: shellBlocks(readFileSync(join(root, file), 'utf8')) }));

describe('the documentation examples', () => {
  it('finds examples in the README and in the guides', () => {
    const count = (file: string): number => examples.find((each) => each.file === file)?.blocks.length ?? 0;
    expect(count('README.md')).toBeGreaterThan(5);
    for (const guide of ['docs/chat.md', 'docs/images.md', 'docs/batch.md', 'docs/settings.md', 'docs/scripting.md', 'docs/emulator.md']) {
      expect(count(guide), guide).toBeGreaterThan(0);
    }
  });

  it('runs in-process only the lines with no shell around svc', () => {
    expect(kindOf('svc chat -f notes.md "a | b; c > d"   # a comment (with | and >)')).toBe('bare');
    expect(kindOf("svc roles set t --system 'You {{lang}} $HOME'")).toBe('bare');
    expect(kindOf('svc chat "hi" | cat')).toBe('plain');
    expect(kindOf('svc chat "hi" > out.txt')).toBe('plain');
    expect(kindOf('SVC_SAVE_ONE_SHOTS=off svc chat "hi"')).toBe('plain');
    expect(kindOf('svc chat "$PROMPT"')).toBe('plain');
    expect(kindOf('svc chat -f *.log "hi"')).toBe('plain');
    expect(kindOf('svc chat --session work')).toBe('repl');
    expect(kindOf('svc chat --tools fs')).toBe('repl');
    expect(kindOf('svc chat --tools fs "read todo.txt"')).toBe('tool-ask');
    expect(kindOf("svc chat --tools fs --allow 'fs.*' \"read todo.txt\"")).toBe('bare');
  });

  it('reads only `sh` blocks: a `bash` block is shown, not run', () => {
    expect(shellBlocks('```sh\nsvc models\n```\n```bash\nsvc emulator &\n```\n')).toEqual([['svc models']]);
  });
});

// In each file's order, on purpose: later lines use what earlier ones made (`svc sessions show
// work` after `svc chat --session work`), as a reader following the page would.
for (const { file, blocks } of examples.filter((each) => each.blocks.length > 0)) {
  describe(`${file} examples`, { shuffle: false }, () => {
    let place: Place;
    beforeAll(async () => {
      place = await makePlace();
    });
    afterAll(() => place.sandbox.cleanup());

    blocks.forEach((lines, index) => {
      const compound = lines.some((line) => /^\s*(case|if|for|while)\b/.test(line));
      const title = `block ${index + 1}: ${lines[0]!.slice(0, 60)}`;
      const needsTerminal = lines.some((line) => ['repl', 'repl-piped', 'login', 'tool-ask'].includes(kindOf(line)));
      it.skipIf(needsTerminal && !hasTmux)(title, async () => {
        if (compound) return runPlain(place, lines.join('\n'));
        // The emulator example names port 8080, which may be taken: it runs on a port the system
        // picks (--port 0), and the lines after it use the address it prints.
        let baseUrl: string | undefined;
        let background: ResultPromise | undefined;
        try {
          for (const original of lines) {
            let line = baseUrl ? original.replace(/http:\/\/127\.0\.0\.1:8080\b/g, baseUrl) : original;
            const kind = kindOf(line);
            if (kind === 'npm') continue;
            if (kind === 'emulator') {
              // --delay paces tokens for a person watching; keep the flag, shorten the wait.
              line = line.replace(/--port 8080\b/, '--port 0').replace(/--delay \d+/, '--delay 1');
              background = execa('bash', ['-c', `exec ${line}`], { cwd: place.sandbox.home, env: place.env, extendEnv: false, reject: false });
              let stderr = '';
              await new Promise<void>((resolve, reject) => {
                background!.stderr?.on('data', (data: Buffer) => {
                  stderr += data.toString();
                  if (stderr.includes('Press Ctrl-C')) resolve();
                });
                background!.on('exit', () => reject(new Error(`the emulator stopped: ${stderr}`)));
              });
              baseUrl = /SVC_BASE_URL=(\S+)/.exec(stderr)?.[1];
              expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
            } else if (kind === 'bare') {
              await runBare(place, line);
            } else if (kind === 'plain') {
              await runPlain(place, line);
            } else {
              await runInTerminal(place, line, kind);
            }
          }
        } finally {
          if (background) {
            background.kill('SIGTERM');
            const stopped = await background;
            expect(stopped.exitCode).toBe(0);
          }
        }
      }, 120_000);
    });
  });
}

describe('the README set-up command', () => {
  it('npm run demo streams from the embedded emulator, runs a tool through a real MCP server, makes an image, and leaves nothing behind', async () => {
    // Its own temporary folder: whatever the demo writes must be inside its folder there, and gone after.
    const tmp = mkdtempSync(join(tmpdir(), 'svc-demo-test-'));
    // npm on Node 22+ keeps Node's compile cache of its own files in TMPDIR (node-compile-cache)
    // unless NODE_COMPILE_CACHE names another folder: npm's, not the demo's, so kept apart.
    const npmCache = mkdtempSync(join(tmpdir(), 'svc-demo-npm-cache-'));
    try {
      const result = await execa('npm', ['run', 'demo'], { cwd: root, reject: false, timeout: 90_000, env: { ...process.env, CI: 'true', TMPDIR: tmp, NODE_COMPILE_CACHE: npmCache } });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain('emulator running at http://127.0.0.1:');
      expect(result.stderr).toMatch(/saved .*lighthouse\.png \(1344×756/);
      expect(result.stdout).toContain('"object": "chat.completion"');
      // The round trip: the model called the filesystem server's tool on the demo's notes, and the answer quotes the file.
      expect(result.stderr).toMatch(/svc: added the MCP server "files": .*mcp-server-filesystem .*\/notes/);
      expect(result.stdout).toContain('The files__read_text_file tool returned: "Ship the release on Friday.".');
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(npmCache, { recursive: true, force: true });
    }
  }, 120_000);
});
