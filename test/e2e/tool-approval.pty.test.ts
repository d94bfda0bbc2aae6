/**
 * Asking about tool calls in a real terminal (tmux), against the emulator, which calls a tool the
 * message names. svc runs from the built tree through test/helpers/tool-chat.mjs: svc's own
 * main() with tools of the test's own in place of MCP servers (calc.add, text.echo, text.shout).
 * In the session: y runs a call, a runs it and later calls of that tool unasked, n declines it,
 * Ctrl-C while asking stops that reply and the session goes on. In one-shot: y, Ctrl-C (exit
 * 130), and stdin a pipe (asked on /dev/tty). The terminal is left as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/conversations/model.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-tools-key-0123456789abcdef';
const TOOL_CHAT = fileURLToPath(new URL('../helpers/tool-chat.mjs', import.meta.url));
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox(KEY);

const QUESTION = (tool: string, scope: string) => `run it? y yes · a yes, and always for ${tool} in this ${scope} · n no › `;

function savedTurns(name: string): Turn[] {
  const path = join(setup.sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', `${name}.jsonl`);
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Turn & { type: string })
    .filter((record) => record.type === 'turn');
}

describe.skipIf(!hasTmux)('asking about tool calls in a terminal', () => {
  it('in the session: y, a (then unasked), n, and Ctrl-C while asking, which stops only that reply', async () => {
    const { env, home } = setup.sandbox;
    const term = await startTmux(`node "${TOOL_CHAT}" chat --tools calc --tools text --session tools`, env, home);
    try {
      await term.waitFor('· tools calc, text · new conversation');
      await term.type('please add two numbers', true);
      await term.waitFor(new RegExp(`tool call: calc\\.add\\n {4}\\{\\n {6}"a": [\\d.]+,\\n {6}"b": [\\d.]+\\n {4}\\}\\n${QUESTION('calc.add', 'session').replace(/[.?]/g, '\\$&')}$`, 'm'));
      await term.press('y');
      await term.waitFor(/› yes\n {2}↳ calc\.add: \d+ B · [\d.]+\n[\s\S]*\n› $/m);

      await term.type('add again', true);
      await term.waitFor(/add again\ntool call: calc\.add[\s\S]*› $/m);
      await term.press('a');
      await term.waitFor(/› yes, always for calc\.add\n[\s\S]*\n› $/m);
      await term.type('add once more', true);
      await term.waitFor(/add once more\ntool: calc\.add \{ "a": [\d.]+, "b": [\d.]+ \}\n {2}↳ calc\.add: [\s\S]*\n› $/m);

      await term.type('echo these words', true);
      await term.waitFor(/echo these words\ntool call: text\.echo \(read-only, says its server\)[\s\S]*› $/m);
      await term.press('n');
      await term.waitFor(/› no\n {2}↳ text\.echo: declined\n[\s\S]*\n› $/m);

      await term.type('echo those words', true);
      await term.waitFor(/echo those words\ntool call: text\.echo[\s\S]*› $/m);
      await term.press('C-c');
      await term.waitFor(/› \^C\n\(reply interrupted; kept as far as it came: \/retry asks again\)\n\n› $/m);

      // The session goes on: a message after it is answered, and Ctrl-D leaves as always.
      await term.type('thanks', true);
      await term.waitFor(/thanks\n[\s\S]+\n› $/m);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
    const turns = savedTurns('tools');
    expect(turns.map((turn) => turn.steps?.[0]?.calls.map((call) => [call.tool, call.declined === true, call.isError === true]) ?? [])).toEqual([
      [['calc.add', false, false]],
      [['calc.add', false, false]],
      [['calc.add', false, false]],
      [['text.echo', true, false]],
      [['text.echo', false, true]],
      [],
    ]);
    expect(turns[4]!.interrupted).toBe(true);
  });

  it('in one-shot: y runs the call (exit 0); Ctrl-C while asking is exit 130; with stdin a pipe it asks on the terminal', async () => {
    const { env, home } = setup.sandbox;
    const term = await startTmux(
      [
        `node "${TOOL_CHAT}" chat --tools calc "add two numbers"; echo "[first $?]"`,
        `node "${TOOL_CHAT}" chat --tools calc "add two numbers"; echo "[second $?]"`,
        `echo "add these two" | node "${TOOL_CHAT}" chat --tools calc; echo "[third $?]"`,
        // Whatever svc did to the terminal, it is put back: line editing and echo on.
        `stty -a | grep -o -- '-\\?icanon' | head -1`,
      ].join('\n'),
      env,
      home,
    );
    try {
      await term.waitFor(QUESTION('calc.add', 'command'));
      await term.press('y');
      await term.waitFor(/› yes\n {2}↳ calc\.add: [\s\S]*\[first 0\]/);
      await term.waitFor(/\[first 0\][\s\S]*› $/m);
      await term.press('C-c');
      await term.waitFor(/› \^C\nsvc: interrupted\n\[second 130\]/);
      await term.waitFor(/\[second 130\][\s\S]*› $/m);
      await term.press('n');
      await term.waitFor(/› no\n {2}↳ calc\.add: declined\n[\s\S]*\[third 0\]\nicanon\n/);
    } finally {
      await term.kill();
    }
  });
});
