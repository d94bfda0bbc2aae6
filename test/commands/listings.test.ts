/**
 * The listings (`sessions list`, `profiles list`, `roles list`): an aligned table with a header on a
 * terminal, tab-separated lines with no header in a pipe; `ls` for `list` everywhere.
 */
import { mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { textWidth } from '../../src/terminal/width.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const run = (args: string[], options: { stdoutIsTTY?: boolean; columns?: number } = {}) => runSvc(args, sandbox, options);

/** A conversation file as svc writes it, with one turn at a chosen time. */
function save(name: string, user: string, at: string, usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }): void {
  const dir = join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
  mkdirSync(dir, { recursive: true });
  const records = [{ type: 'start', v: 1, name, created: at }, { type: 'turn', user, assistant: 'ok', at, model: 'svc-pro', ...(usage ? { usage } : {}) }];
  writeFileSync(join(dir, `${name}.jsonl`), records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o600 });
  // Written at its turn's time: a pipe lists by when each file was last written, and two files
  // written in the same millisecond would otherwise come in either order.
  utimesSync(join(dir, `${name}.jsonl`), new Date(at), new Date(at));
}

describe('svc sessions list', () => {
  beforeEach(() => {
    save('a-long-name', 'what is a rate limit?', '2025-01-01T10:00:00.000Z', { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
    save('jp', '日本語の質問です、教えて', '2025-03-01T09:30:00.000Z', { prompt_tokens: 900, completion_tokens: 100, total_tokens: 1000 });
  });

  it('on a terminal: a table with a header, newest first, columns aligned in terminal columns (wide characters count two)', async () => {
    const result = await run(['sessions', 'list'], { stdoutIsTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'NAME         CHANGED           TURNS  FIRST LINE\n' + 'jp           2025-03-01 09:30      1  日本語の質問です、教えて\n' + 'a-long-name  2025-01-01 10:00      1  what is a rate limit?\n',
    );
  });

  it('in a pipe: one tab-separated line each, no header; `ls` is `list`', async () => {
    const piped = await run(['sessions', 'list']);
    expect(piped.stdout).toBe('jp\t2025-03-01 09:30\t1\t日本語の質問です、教えて\na-long-name\t2025-01-01 10:00\t1\twhat is a rate limit?\n');
    expect((await run(['sessions', 'ls'])).stdout).toBe(piped.stdout);
  });

  it('--usage adds a right-aligned TOKENS column on a terminal, a field in a pipe', async () => {
    const shown = (await run(['sessions', 'list', '--usage'], { stdoutIsTTY: true })).stdout.split('\n');
    expect(shown[0]).toBe('NAME         CHANGED           TURNS  TOKENS  FIRST LINE');
    expect(shown[1]).toBe('jp           2025-03-01 09:30      1    1000  日本語の質問です、教えて');
    expect(shown[2]).toBe('a-long-name  2025-01-01 10:00      1      12  what is a rate limit?');
    expect((await run(['sessions', 'list', '--usage'])).stdout.split('\n')[1]).toBe('a-long-name\t2025-01-01 10:00\t1\t12\twhat is a rate limit?');
  });

  it('cuts the first lines to the terminal width, and prints nothing but the note when there is nothing to list', async () => {
    const narrow = (await run(['sessions', 'list'], { stdoutIsTTY: true, columns: 50 })).stdout.trimEnd().split('\n');
    expect(narrow.map(textWidth).every((width) => width <= 50)).toBe(true);
    // 12 columns left of 50: five wide characters and the one-column … (a sixth would make 13).
    expect(narrow[1]).toBe('jp           2025-03-01 09:30      1  日本語の質…');
    expect(narrow[2]).toBe('a-long-name  2025-01-01 10:00      1  what is a r…');
    const none = await run(['sessions', 'list', '--since', '2030-01-01'], { stdoutIsTTY: true });
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('no saved conversation');
  });
});

describe('svc profiles list', () => {
  beforeEach(async () => {
    expect((await run(['config', 'set', '--profile', 'work', 'baseUrl', 'http://127.0.0.1:8080'])).exitCode).toBe(0);
    expect((await run(['profiles', 'use', 'work'])).exitCode).toBe(0);
  });

  it('on a terminal: NAME, BASE URL, KEY, DEFAULT under a header', async () => {
    const result = await run(['profiles', 'list'], { stdoutIsTTY: true });
    expect(result.stdout).toBe('NAME     BASE URL               KEY     DEFAULT\n' + 'default  -                      no key\n' + 'work     http://127.0.0.1:8080  no key  yes\n');
  });

  it('in a pipe: tab-separated lines, no header, "default" ending the default one; `ls` is `list`', async () => {
    const piped = await run(['profiles', 'list']);
    expect(piped.stdout).toBe('default\t-\tno key\nwork\thttp://127.0.0.1:8080\tno key\tdefault\n');
    expect((await run(['profiles', 'ls'])).stdout).toBe(piped.stdout);
  });
});

describe('svc roles list', () => {
  const rolesDir = () => join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles');

  beforeEach(() => {
    mkdirSync(rolesDir(), { recursive: true });
    // Written by hand on Windows: CRLF line ends, the message over several lines.
    writeFileSync(join(rolesDir(), 'notes.md'), '---\r\nmodel: svc-mini\r\n---\r\nYou keep notes.\r\nSecond line.\r\n');
  });

  it('on a terminal: a table whose SYSTEM MESSAGE is the first line, cut to the width', async () => {
    const lines = (await run(['roles', 'list'], { stdoutIsTTY: true, columns: 60 })).stdout.trimEnd().split('\n');
    // The NAME column is as wide as the longest name, the built-in `translate`.
    expect(lines[0]).toBe('NAME       SOURCE    SYSTEM MESSAGE');
    expect(lines).toContain('notes      file      You keep notes.');
    expect(lines.find((line) => line.startsWith('commit '))).toMatch(/^commit {5}built-in {2}You write git commit messages\. The use…$/);
    expect(lines.map(textWidth).every((width) => width <= 60)).toBe(true);
  });

  it('in a pipe: tab-separated lines, no header, the first line whole and only it; `ls` is `list`', async () => {
    const piped = await run(['roles', 'list']);
    const lines = piped.stdout.trimEnd().split('\n');
    expect(lines).toContain('notes\tfile\tYou keep notes.');
    expect(lines.find((line) => line.startsWith('shell\t'))).toMatch(/^shell\tbuilt-in\tYou turn a request into a shell command\. .* give the most likely command\.$/);
    expect(lines.some((line) => line.includes('Second line') || line.startsWith('NAME'))).toBe(false);
    expect((await run(['roles', 'ls'])).stdout).toBe(piped.stdout);
  });
});
