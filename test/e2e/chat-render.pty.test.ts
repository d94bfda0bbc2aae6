/**
 * `svc chat` rendering Markdown in a real terminal (tmux, 100 columns) against the emulator,
 * one-shot and in the session: the screen is the renderer's model screen for the reply (so
 * nothing was drawn twice and no word was split at the edge), markers gone, fences hidden, code
 * kept, styles present; each reply is in the scrollback once. In a pipe the same reply is the
 * service's text byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { renderWhole } from '../helpers/render.js';
import { SVC_BIN, svc } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'render-pty-key-0123456789';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

// A few milliseconds between tokens: the reply really streams in pieces.
const setup = useEmulatorSandbox(KEY, { delayMs: 2 });
const CODE_PROMPT = 'write a python function that reverses a string';
const STEPS_PROMPT = 'give me the steps to bake bread';

/** The environment of a colour terminal (the sandbox sets NO_COLOR for every other test). */
function terminalEnv(): Record<string, string> {
  const env: Record<string, string> = { ...setup.sandbox.env, TERM: 'xterm-256color' };
  delete env.NO_COLOR;
  return env;
}

/** The reply to `prompt` at temperature 0 (the emulator is deterministic then), read from a pipe. */
async function rawReply(prompt: string): Promise<string> {
  const result = await svc(['chat', '--no-save', '-t', '0', '--no-stream', '--json', prompt], setup.sandbox);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout).choices[0].message.content as string;
}

/** Every word of the screen rows is a whole word of the reply (markers aside): none was split at the edge. */
function expectWholeWords(rows: string, reply: string): void {
  const words = new Set(reply.replace(/[`*]/g, '').split(/\s+/));
  const shown = rows.split(/\s+/).filter((word) => word !== '');
  expect(shown.filter((word) => !words.has(word))).toEqual([]);
}

const rows = (text: string) => text.split('\n').map((line) => line.replace(/ +$/, '')).join('\n');

describe.skipIf(!hasTmux)('svc chat renders Markdown in a terminal', () => {
  it('one-shot: the model screen, styled, each line once; in a pipe the exact text', async () => {
    const reply = await rawReply(CODE_PROMPT);
    // The reply has what the test looks for: a fence with a language, inline code, a line longer than the terminal.
    expect(reply).toMatch(/^```python$/m);
    expect(reply).toContain('`');
    expect(reply.split('\n').some((line) => line.length > 100)).toBe(true);

    const term = await startTmux(`node "${SVC_BIN}" chat --no-save -t 0 "${CODE_PROMPT}"`, terminalEnv(), setup.sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]', 20_000);
      const shown = rows(screen.slice(0, screen.indexOf('[exit 0]'))).replace(/\n+$/, '');
      expect(shown).toBe(renderWhole(reply, { width: 100 }).text());
      expect(shown).not.toMatch(/\*\*|```|`/);
      expect(shown.split('\n').filter((line) => line === 'python')).toHaveLength(1);
      for (const line of reply.split('\n').filter((text) => text.startsWith('    '))) expect(shown).toContain(line);
      expectWholeWords(shown, reply);
      // Nothing drawn twice: the whole scrollback holds each line of the reply once.
      for (const line of ['Sure, here is a minimal Python version:', 'def count_reverses_string(items):']) expect(await term.count(line)).toBe(1);
      const styled = await term.styledScreen();
      expect(styled).toMatch(/\u001b\[3[0-9]m(?:\u001b\[[0-9;]*m)*def/);
      expect(styled).toMatch(/\u001b\[3[0-9]m(?:\u001b\[[0-9;]*m)*count_reverses_string\(\)/);
    } finally {
      await term.kill();
    }

    const piped = await svc(['chat', '--no-save', '-t', '0', CODE_PROMPT], setup.sandbox, { encoding: 'buffer', stripFinalNewline: false });
    expect(piped.exitCode).toBe(0);
    expect(Buffer.from(piped.stdout as unknown as Uint8Array).equals(Buffer.from(reply.endsWith('\n') ? reply : `${reply}\n`))).toBe(true);
  }, 40_000);

  it('the session: replies rendered, a blank line between turns, /history rendered, nothing drawn twice', async () => {
    const term = await startTmux(`node "${SVC_BIN}" chat --session rendered -t 0`, terminalEnv(), setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type(CODE_PROMPT, true);
      // The reply, then one blank line, then the next prompt.
      await term.waitFor(/reverses a string\n[\s\S]+\n\n› $/m, 20_000);
      await term.type(STEPS_PROMPT, true);
      const screen = await term.waitFor(/bake bread\n[\s\S]+\n\n› $/m, 20_000);
      // The replies as the service sent them (and as the session saved them).
      const [code, steps] = new ConversationStore(setup.sandbox.env).read('rendered').turns.map((turn) => turn.assistant);
      expect(code).toMatch(/^```python$/m);
      expect(steps).toMatch(/^1\. \*\*/m);
      // Each reply is on the screen as one-shot renders it, followed by one blank line.
      const between = (start: string, end: string) => screen.slice(screen.indexOf(start) + start.length + 1, screen.indexOf(end, screen.indexOf(start)));
      expect(rows(between(CODE_PROMPT, '\n\n› '))).toBe(renderWhole(code!, { width: 100 }).text());
      expect(rows(between(STEPS_PROMPT, '\n\n› '))).toBe(renderWhole(steps!, { width: 100 }).text());
      expect(await term.count('def count_reverses_string(items):')).toBe(1);
      expect(await term.count('Set a clear goal for bread.')).toBe(1);
      expect(screen).not.toMatch(/\*\*|```/);
      expect(await term.styledScreen()).toMatch(/\u001b\[1m(?:\u001b\[[0-9;]*m)*Set a clear goal/);

      await term.type('/history', true);
      await term.waitFor(/\[you\] give me the steps[\s\S]*\n› $/m);
      // /history draws both replies again, rendered: now each is there twice, still without markers.
      expect(await term.count('def count_reverses_string(items):')).toBe(2);
      expect(await term.count('Set a clear goal for bread.')).toBe(2);
      expect(await term.screen()).not.toMatch(/\*\*|```/);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
  }, 60_000);
});
