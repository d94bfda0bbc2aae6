/**
 * Plain mode (issue 26, item 7), in a real terminal (tmux): `--plain`, `SVC_PLAIN=1` and
 * `TERM=dumb` give no colour, no cursor movement and no redrawn line; the reply as its text, each
 * line once; no spinner; and the session still works: its prompt, a reply, slash commands,
 * Ctrl-C at the prompt, /exit. Plus the one-shot's line-at-a-time output, in-process.
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { main } from '../../src/main.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { runSvc, testIO } from '../helpers/in-process.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
const setup = useEmulatorSandbox('plain-key-0123456789');
const scripted = useScriptedServer();
const ESC = '\u001b';

describe.skipIf(!hasTmux)('svc chat --plain in a terminal', () => {
  it.each([
    ['--plain', `node "${SVC_BIN}" --plain chat --no-save`, {}],
    ['SVC_PLAIN=1', `node "${SVC_BIN}" chat --no-save`, { SVC_PLAIN: '1' }],
  ])('%s: the session works with no escape sequence on the screen', async (_how, command, extra) => {
    const term = await startTmux(command, { ...setup.sandbox.env, TERM: 'xterm-256color', COLORTERM: 'truecolor', ...extra }, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('write a python function to add numbers', true);
      await term.waitFor(/```\n\n[^\n]*\n\n› $/m);
      await term.press('C-c');
      await term.waitFor('Ctrl-D to leave)');
      await term.type('/usage', true);
      await term.waitFor('whole conversation: tokens:');
      const styled = await term.styledScreen();
      // Markdown stays text (the fence and its language are words on the screen); nothing is styled.
      expect(styled).toContain('```python');
      expect(styled.includes(ESC), styled).toBe(false);
      await term.type('/exit', true);
    } finally {
      await term.kill();
    }
  }, 30_000);
});

describe('one-shot answers in plain mode', () => {
  it('print each line once, whole, with no escape sequence, on a terminal too', async () => {
    // The reply comes in pieces that cut its lines; a screen reader must not hear a line twice.
    scripted.server.script(reply.sse([chunk('# Ti'), chunk('tle\n- one'), chunk(' item\n**bold** end', 'stop'), 'data: [DONE]\n\n']));
    const { io, stdout, stderr } = testIO({ stdoutIsTTY: true, stderrIsTTY: true, cwd: setup.sandbox.home, env: { ...setup.sandbox.env, SVC_BASE_URL: scripted.server.baseUrl, TERM: 'xterm-256color', COLORTERM: 'truecolor', NO_COLOR: '' } });
    const exitCode = await main(['--plain', 'chat', '--no-save', 'q'], io, { interrupts: new InterruptRouter(() => {}) });
    expect(exitCode, stderr.text()).toBe(0);
    expect(stdout.text()).toBe('# Title\n- one item\n**bold** end\n');
    expect(stdout.chunks.every((piece) => piece.toString('utf8').endsWith('\n'))).toBe(true);
    expect((stdout.text() + stderr.text()).includes(ESC)).toBe(false);
  });

  it('TERM=dumb is plain too: no spinner, no colour', async () => {
    scripted.server.script(reply.sse([chunk('plain text', 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', 'q'], setup.sandbox, { stdoutIsTTY: true, stderrIsTTY: true, env: { SVC_BASE_URL: scripted.server.baseUrl, TERM: 'dumb', NO_COLOR: '' } });
    expect(result.stdout).toBe('plain text\n');
    expect((result.stdout + result.stderr).includes(ESC)).toBe(false);
  });
});
