/**
 * Every example of every `--help` page runs as printed against the emulator (issue 36, item 6):
 * the pages are read from the program itself (each command's `--help`), their `$ ` lines taken
 * (a line that goes on below, indented, is part of it), and run in a page's order in a sandbox of
 * that page's own (temporary HOME and XDG folders) holding what the examples read: a build log,
 * notes, sources, a git repository with a staged change, batch inputs, a conversation named
 * "work". A line that is one svc command and nothing else runs in-process; one with shell around
 * it runs in bash with `svc` on PATH. `svc emulator` lines run in the background until they say
 * they listen, then are stopped (its fixed port 8080 becomes one the system picks, and the line
 * after it uses the address printed). The few that need a person at a terminal are listed below,
 * each with its reason; a listed line that no page prints any more fails the test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJpeg } from '@svc/emulator/images';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { createFactory } from '../../src/factory.js';
import { buildProgram } from '../../src/program.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { runSvc, testIO } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { isBareCommand } from '../helpers/shell-lines.js';

const KEY = 'help-examples-key-0123456789';
const MCP_SERVERS_BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));
const WORK_KEY = 'help-examples-work-key-01234';

/** Examples that need a person at a terminal, and why; each is run by the tests named. */
const NEEDS_A_PERSON = new Map<string, string>([
  ['svc chat', 'the interactive session: a terminal to type in (test/e2e/session.pty.test.ts)'],
  ['cat notes.md | svc chat -i', 'goes on talking from the terminal after the notes (test/e2e/session.pty.test.ts)'],
  ['svc auth login', 'asks for the key on the terminal (test/e2e/commands-terminal.pty.test.ts)'],
  ['svc roles edit reviewer', 'opens $EDITOR on the terminal (test/commands/roles.test.ts)'],
  ['svc roles edit commit', 'opens $EDITOR on the terminal (test/commands/roles.test.ts)'],
  ['EDITOR=nano svc roles edit notes', 'opens nano on the terminal'],
]);

/** One page: the words after `svc`, and its examples, each a line as printed (continuations joined). */
interface Page {
  path: string[];
  examples: string[];
}

/** The `$ ` lines of a help page's "Examples:" section; an indented line below one goes on with it. */
export function examplesOf(help: string): string[] {
  const section = help.split(/^Examples:\n/m)[1];
  if (section === undefined) return [];
  const examples: string[] = [];
  for (const line of section.split('\n')) {
    if (line.trim() === '') {
      if (examples.length > 0) break;
      continue;
    }
    const start = /^ {2}\$ (.*)$/.exec(line);
    if (start) examples.push(start[1]!);
    else if (/^ {4,}\S/.test(line) && examples.length > 0) examples[examples.length - 1] += `\n${line}`;
    else break;
  }
  return examples;
}

/** Every command of the program, the root first, with its help page's examples. */
async function pages(): Promise<Page[]> {
  const { io } = testIO();
  const program = buildProgram({ factory: createFactory(io), signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) });
  const paths: string[][] = [];
  const visit = (command: CommandUnknownOpts, path: string[]): void => {
    paths.push(path);
    for (const sub of command.commands) visit(sub as CommandUnknownOpts, [...path, sub.name()]);
  };
  visit(program, []);
  const found: Page[] = [];
  for (const path of paths) {
    const help = await runSvc([...path, '--help']);
    expect(help.exitCode, `svc ${path.join(' ')} --help`).toBe(0);
    found.push({ path, examples: examplesOf(help.stdout) });
  }
  return found;
}

const withoutComment = (line: string): string => line.replace(/\s+#[^'"\n]*$/, '').trim();

let emulator: RunningEmulator;
let allPages: Page[];
beforeAll(async () => {
  emulator = await startEmulator({ apiKeys: [KEY, WORK_KEY, 'test-key'] });
  allPages = await pages();
});
afterAll(() => emulator?.close());

/** A sandbox laid out with what the examples read, and the environment to run them in. */
async function examplesSandbox(): Promise<{ sandbox: Sandbox; env: Record<string, string> }> {
  const sandbox = makeSandbox();
  const home = (...parts: string[]) => join(sandbox.home, ...parts);
  const bin = home('bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${SVC_BIN}" "$@"\n`, { mode: 0o755 });
  // --open hands the file to the system's viewer: here one that only says it was asked.
  writeFileSync(join(bin, 'xdg-open'), '#!/bin/sh\necho "viewer asked to open $1" >> "$HOME/opened.txt"\n', { mode: 0o755 });
  // `some-llm-tool … | svc render`: any other program that prints Markdown.
  writeFileSync(join(bin, 'some-llm-tool'), '#!/bin/sh\nprintf "# Closures\\n\\nA **closure** keeps the variables it was made with.\\n"\n', { mode: 0o755 });
  // The MCP servers the mcp pages start (mcp-server-filesystem, mcp-server-everything): devDependencies, as if installed globally.
  const env: Record<string, string> = { ...sandbox.env, PATH: `${bin}:${MCP_SERVERS_BIN}:${sandbox.env.PATH}`, SVC_BASE_URL: emulator.baseUrl, SVC_API_KEY: KEY, KEY, WORK_KEY, SHELL: '/bin/bash' };
  writeFileSync(home('build.log'), 'error TS2322: Type "string" is not assignable to type "number".\n');
  writeFileSync(home('notes.md'), '# Notes\n\n| day | task |\n|---|---|\n| Mon | ship |\n');
  writeFileSync(home('app.log'), 'TypeError: cannot read properties of undefined (reading "id")\n');
  // The picture `svc chat -f photo.jpg` asks about: a small blue square.
  writeFileSync(home('photo.jpg'), await encodeJpeg(new Uint8Array(16 * 16 * 4).map((_, i) => [30, 30, 220, 255][i % 4]!), 16, 16));
  mkdirSync(home('src', 'lib'), { recursive: true });
  writeFileSync(home('src', 'main.ts'), 'export const answer = 42;\n');
  writeFileSync(home('src', 'lib', 'util.ts'), 'export const twice = (n: number) => n * 2;\n');
  const request = (id: string, content: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content }] } });
  writeFileSync(home('requests.jsonl'), `${request('q1', 'hello')}\n${request('q2', 'a bash loop over files, in a code block')}\n`);
  writeFileSync(home('questions.txt'), 'what is a closure?\nwhat is a monad?\n');
  writeFileSync(home('words.txt'), 'good morning\nthank you\n');
  writeFileSync(home('items.json'), '{"id": "a", "text": "hello"}\n{"id": "b", "text": "goodbye"}\n');
  // The folder the mcp pages give the filesystem server, and a Claude Desktop settings file to import.
  mkdirSync(home('notes'));
  writeFileSync(home('notes', 'todo.txt'), 'Ship the release on Friday.\n');
  mkdirSync(home('.config', 'Claude'), { recursive: true });
  writeFileSync(home('.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { everything: { command: 'mcp-server-everything' }, desktop: { command: 'mcp-server-filesystem', args: [sandbox.home] } } }));
  // The folders a shell's own set-up has, where the completion examples write.
  for (const dir of [['.local', 'share', 'bash-completion', 'completions'], ['.zfunc'], ['.config', 'fish', 'completions']]) mkdirSync(home(...dir), { recursive: true });
  await execa('sh', ['-c', 'git init -q . && git config user.email t@example.com && git config user.name t && echo "hello" > hello.txt && git add hello.txt'], { cwd: sandbox.home, env, extendEnv: false });
  // A conversation named "work" that the sessions examples show, search, fork and export.
  for (const text of ['how do I handle a rate limit with retry?', 'and a timeout in docker compose?', 'thanks']) {
    const made = await runSvc(['chat', '--session', 'work', text], undefined, { env, cwd: sandbox.home });
    expect(made.exitCode, made.stderr).toBe(0);
  }
  // The profile "work" that `svc chat --profile work` uses (the profiles page makes its own first).
  expect((await runSvc(['config', 'set', '--profile', 'work', 'baseUrl', 'https://ai.example.com'], undefined, { env, cwd: sandbox.home })).exitCode).toBe(0);
  return { sandbox, env };
}

/** What the examples of one page need that an earlier example on another page made. */
const PAGE_SETUP: Record<string, string[][]> = {
  'image info': [['image', 'a lighthouse at dusk', '-o', 'lighthouse.png']],
  'image again': [['image', 'a lighthouse at dusk', '-o', 'lighthouse.png']],
  'sessions delete': [['sessions', 'fork', 'work', 'work-fork'], ['sessions', 'fork', 'work', 'work-b']],
  'config get': [['config', 'set', 'model', 'svc-mini']],
  chat: [['mcp', 'add', 'notes', '--', 'mcp-server-filesystem', '~/notes']],
};

/** Run `line` in bash; an `svc emulator` line runs in the background, listening, until stopped. */
async function runLine(line: string, context: { sandbox: Sandbox; env: Record<string, string>; background: ResultPromise[]; baseUrl?: string }): Promise<void> {
  const { sandbox, env } = context;
  const shown = context.baseUrl ? line.replace(/http:\/\/127\.0\.0\.1:8080\b/g, context.baseUrl) : line;
  if (/^svc emulator\b/.test(line)) {
    // Port 8080 may be taken on this machine: the system picks one, and the next line uses it.
    const started = execa('bash', ['-c', `exec ${shown.replace(/--port 8080\b/, '--port 0').replace(/--delay \d+/, '--delay 1')}`], { cwd: sandbox.home, env, extendEnv: false, reject: false });
    context.background.push(started);
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      started.stderr?.on('data', (data: Buffer) => {
        stderr += data.toString();
        if (stderr.includes('Press Ctrl-C')) resolve();
      });
      void started.then(() => reject(new Error(`${line}: the emulator stopped: ${stderr}`)));
    });
    context.baseUrl = /SVC_BASE_URL=(\S+)/.exec(stderr)?.[1];
    return;
  }
  if (isBareCommand(line)) {
    // One svc command: bash splits its words (quotes, the comment), main() runs them.
    const split = await execa('bash', ['-c', `printf '%s\\0' ${line.replace(/^svc\s+/, '')}`], { cwd: sandbox.home, env, extendEnv: false, stdin: 'ignore' });
    const result = await runSvc(split.stdout.split('\0').slice(0, -1), undefined, { env, cwd: sandbox.home });
    expect(result.exitCode, `${line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
    expect(hasStackTrace(result.stderr)).toBe(false);
    return;
  }
  const result = await execa('bash', ['-o', 'pipefail', '-c', shown], { cwd: sandbox.home, env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
  expect(result.exitCode, `${line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
  expect(hasStackTrace(result.stderr)).toBe(false);
}

describe('the examples of the help pages', { shuffle: false }, () => {
  it('are read from every page that has them, continuations and all', () => {
    expect(examplesOf('Usage: x\n\nExamples:\n  $ svc a "b"   # c\n  $ jq -c \'{x: 1,\n      y: 2}\' f | svc batch -\n\nInput: …\n  $ not an example\n')).toEqual(['svc a "b"   # c', "jq -c '{x: 1,\n      y: 2}' f | svc batch -"]);
    const named = allPages.filter((page) => page.examples.length > 0).map((page) => page.path.join(' '));
    expect(named).toEqual(expect.arrayContaining(['', 'chat', 'image', 'image info', 'image again', 'batch', 'sessions', 'roles', 'models', 'auth', 'config', 'profiles', 'mcp', 'emulator', 'completion']));
  });

  it('lists only lines that a page still prints as needing a person', () => {
    const printed = new Set(allPages.flatMap((page) => page.examples.map(withoutComment)));
    expect([...NEEDS_A_PERSON.keys()].filter((line) => !printed.has(line))).toEqual([]);
  });

  // One test per page, in the program's order; each page in a sandbox of its own.
  const order = ['', 'chat', 'image', 'image info', 'image again', 'batch', 'sessions', 'sessions list', 'sessions show', 'sessions search', 'sessions fork', 'sessions rename', 'sessions export', 'sessions delete', 'roles', 'roles list', 'roles show', 'roles set', 'roles edit', 'roles delete', 'models', 'render', 'auth', 'auth login', 'auth logout', 'auth status', 'config', 'config get', 'profiles', 'profiles delete', 'mcp', 'mcp add', 'mcp remove', 'mcp tools', 'mcp import', 'emulator', 'completion'];
  it.each(order)('svc %s --help', async (name) => {
    const page = allPages.find((candidate) => candidate.path.join(' ') === name);
    const runnable = (page?.examples ?? []).filter((line) => !NEEDS_A_PERSON.has(withoutComment(line)));
    if (runnable.length === 0) return;
    const { sandbox, env } = await examplesSandbox();
    const context = { sandbox, env, background: [] as ResultPromise[] } as { sandbox: Sandbox; env: Record<string, string>; background: ResultPromise[]; baseUrl?: string };
    try {
      // A leading ~ is the home folder, as the shell would make it.
      for (const words of PAGE_SETUP[name] ?? []) expect((await runSvc(words.map((word) => word.replace(/^~(?=\/|$)/, sandbox.home)), undefined, { env, cwd: sandbox.home })).exitCode).toBe(0);
      for (const line of runnable) await runLine(line, context);
    } finally {
      for (const started of context.background) {
        started.kill('SIGTERM');
        expect((await started).exitCode).toBe(0);
      }
      sandbox.cleanup();
    }
  }, 180_000);

  it('every page with examples is in the order above', () => {
    const named = allPages.filter((page) => page.examples.length > 0).map((page) => page.path.join(' '));
    expect(named.filter((name) => !order.includes(name))).toEqual([]);
  });
});
