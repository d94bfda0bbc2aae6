/**
 * Asking about tool calls in a real terminal (tmux): the built svc (bin/svc.js) against the
 * emulator, which calls the tool a message names, with the real filesystem MCP server on a folder
 * of the test's own. In the session: y runs a call, a runs it and later calls of that tool
 * unasked, n declines it, Ctrl-C while asking stops that reply and the session goes on. In
 * one-shot: y, Ctrl-C (exit 130), and stdin a pipe (asked on /dev/tty). Each time: the call is
 * shown with its arguments as JSON, the file's escape sequences reach the screen as visible
 * symbols, the server runs while svc asks and is gone when svc has ended, and the terminal is
 * left as it was.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/conversations/model.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-tools-key-0123456789abcdef';
const FILESYSTEM_SERVER = fileURLToPath(new URL('../../node_modules/.bin/mcp-server-filesystem', import.meta.url));
const SVC = `"${process.execPath}" "${SVC_BIN}"`;
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox(KEY);
let folder: string;

beforeAll(async () => {
  const { env, home } = setup.sandbox;
  folder = join(home, 'notes');
  mkdirSync(folder);
  // A colour and a window title in the file: shown as symbols, never obeyed.
  writeFileSync(join(folder, 'todo.txt'), 'Ship \u001b[38;5;201mon Friday\u001b[0m\u001b]0;pwned\u0007 now\nsecond line\n');
  const added = await runSvc(['mcp', 'add', 'files', '--', FILESYSTEM_SERVER, folder], undefined, { env, cwd: home });
  expect(added.exitCode, added.stderr).toBe(0);
});

const QUESTION = (tool: string, scope: string) => `run it? y yes · a yes, and always for ${tool} in this ${scope} · n no › `;
const escaped = (text: string) => text.replace(/[.?*+()[\]{}|\\^$]/g, '\\$&');
/** The call as svc shows it before asking: the tool, the server's read-only claim, the arguments as indented JSON, the question. */
const ASKED = (tool: string, path: string, scope: string) =>
  new RegExp(`tool call: files\\.${tool} \\(read-only, says its server\\)\\n {4}\\{\\n {6}"path": "${escaped(path)}"\\n {4}\\}\\n${escaped(QUESTION(`files.${tool}`, scope))}$`, 'm');
/** The file's first line as it reaches the screen: each escape character a visible ␛ (and the bell ␇). */
const SHOWN_LINE = 'Ship ␛[38;5;201mon Friday␛[0m␛]0;pwned␇ now';

/** The processes of the filesystem server on the test's folder (its command line ends with the folder). */
async function serverPids(): Promise<number[]> {
  const { stdout } = await execa('ps', ['-eo', 'pid=,args=']);
  return stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null && match[2]!.endsWith(` ${folder}`))
    .map((match) => Number(match![1]));
}

/** Which of `pids` still exist. */
async function stillRunning(pids: number[]): Promise<number[]> {
  const { stdout } = await execa('ps', ['-o', 'pid=', '-p', pids.join(',')], { reject: false });
  return stdout.split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0);
}

function savedTurns(name: string): Turn[] {
  const path = join(setup.sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', `${name}.jsonl`);
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Turn & { type: string })
    .filter((record) => record.type === 'turn');
}

/** Nothing from the file drove the terminal: no colour of its own in the styled screen. */
function expectNoEscapeFromTheFile(styled: string): void {
  expect(styled).not.toContain('\u001b[38;5;201m');
  expect(styled).not.toContain('\u001b]0;');
}

describe.skipIf(!hasTmux)('asking about tool calls in a terminal, with a real MCP server', () => {
  it('in the session: y, a (then unasked), n, and Ctrl-C while asking, which stops only that reply; the server is gone after', async () => {
    const { env, home } = setup.sandbox;
    const term = await startTmux(`${SVC} chat --tools files --session tools`, env, home);
    const seen = new Set<number>();
    try {
      await term.waitFor('· tools files · new conversation');
      await term.type('read the text file todo.txt', true);
      await term.waitFor(ASKED('read_text_file', 'todo.txt', 'session'), 20_000);
      for (const pid of await serverPids()) seen.add(pid);
      await term.press('y');
      await term.waitFor(new RegExp(`› yes\\n {2}↳ files\\.read_text_file: \\d+ B, 2 lines: ${escaped(SHOWN_LINE)}\\n[\\s\\S]*returned: "${escaped(SHOWN_LINE)}"[\\s\\S]*\\n› $`, 'm'));

      await term.type('read the text file todo.txt again', true);
      await term.waitFor(/todo\.txt again\ntool call: files\.read_text_file[\s\S]*› $/m);
      await term.press('a');
      await term.waitFor(/› yes, always for files\.read_text_file\n[\s\S]*\n› $/m);
      await term.type('read the text file todo.txt once more', true);
      await term.waitFor(new RegExp(`once more\\ntool: files\\.read_text_file \\{ "path": "todo\\.txt" \\}\\n {2}↳ files\\.read_text_file: \\d+ B, 2 lines: ${escaped(SHOWN_LINE)}\\n[\\s\\S]*\\n› $`, 'm'));

      await term.type('list the directory', true);
      await term.waitFor(ASKED('list_directory', '.', 'session'));
      await term.press('n');
      await term.waitFor(/› no\n {2}↳ files\.list_directory: declined\n[\s\S]*\n› $/m);

      await term.type('list the directory again', true);
      await term.waitFor(ASKED('list_directory', '.', 'session'));
      for (const pid of await serverPids()) seen.add(pid);
      await term.press('C-c');
      await term.waitFor(/› \^C\n\(reply interrupted; kept as far as it came: \/retry asks again\)\n\n› $/m);

      // The session goes on: a message after it is answered, and Ctrl-D leaves as always.
      await term.type('thanks', true);
      await term.waitFor(/thanks\n[\s\S]+\n› $/m);
      expectNoEscapeFromTheFile(await term.styledScreen());
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
    expect(seen.size).toBeGreaterThan(0);
    expect(await stillRunning([...seen])).toEqual([]);
    const turns = savedTurns('tools');
    expect(turns.map((turn) => turn.steps?.[0]?.calls.map((call) => [call.tool, call.declined === true, call.isError === true]) ?? [])).toEqual([
      [['files.read_text_file', false, false]],
      [['files.read_text_file', false, false]],
      [['files.read_text_file', false, false]],
      [['files.list_directory', true, false]],
      // Interrupted while asking: not run, and its result says so (an error result, for the model).
      [['files.list_directory', false, true]],
      [],
    ]);
    expect(turns[4]!.interrupted).toBe(true);
  });

  it('in one-shot: y runs the call (exit 0); Ctrl-C while asking is exit 130; with stdin a pipe it asks on the terminal; no server is left', async () => {
    const { env, home } = setup.sandbox;
    const term = await startTmux(
      [
        `${SVC} chat --tools files "read the text file todo.txt"; echo "[first $?]"`,
        `${SVC} chat --tools files "read the text file todo.txt"; echo "[second $?]"`,
        `echo "read the text file todo.txt" | ${SVC} chat --tools files; echo "[third $?]"`,
        // Whatever svc did to the terminal, it is put back: line editing and echo on.
        `stty -a | grep -o -- '-\\?icanon' | head -1`,
      ].join('\n'),
      env,
      home,
    );
    const asking = async (): Promise<number[]> => {
      const pids = await serverPids();
      expect(pids.length).toBeGreaterThan(0);
      return pids;
    };
    try {
      await term.waitFor(ASKED('read_text_file', 'todo.txt', 'command'), 20_000);
      const first = await asking();
      await term.press('y');
      await term.waitFor(new RegExp(`› yes\\n {2}↳ files\\.read_text_file: [\\s\\S]*returned: "${escaped(SHOWN_LINE)}"[\\s\\S]*\\[first 0\\]`));
      expect(await stillRunning(first)).toEqual([]);

      await term.waitFor(/\[first 0\][\s\S]*› $/m, 20_000);
      const second = await asking();
      await term.press('C-c');
      await term.waitFor(/› \^C\nsvc: interrupted\n\[second 130\]/);
      expect(await stillRunning(second)).toEqual([]);

      await term.waitFor(/\[second 130\][\s\S]*› $/m, 20_000);
      const third = await asking();
      await term.press('n');
      await term.waitFor(/› no\n {2}↳ files\.read_text_file: declined\n[\s\S]*\[third 0\]\nicanon\n/);
      expect(await stillRunning(third)).toEqual([]);
      expectNoEscapeFromTheFile(await term.styledScreen());
    } finally {
      await term.kill();
    }
    expect(await serverPids()).toEqual([]);
  });
});
