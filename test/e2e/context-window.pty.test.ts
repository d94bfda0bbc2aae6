/**
 * The context window in a real terminal (tmux), against the emulator with a 400-token window
 * (`--context`, its models' `context_length`): the session warns before the send that will not
 * fit, in the terminal's width, sends it anyway, and /usage puts the last request against the
 * window the server gave.
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-window-0123456789abcdef';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox(KEY, { contextLength: 400 });
const words = (count: number): string => Array.from({ length: count }, (_, n) => `word${n}`).join(' ');

describe.skipIf(!hasTmux)('the context window in the session', () => {
  it('warns before the send that outgrows the window, sends it, and /usage shows the last request against it', async () => {
    const term = await startTmux(`node "${SVC_BIN}" chat --max-tokens 20`, { ...setup.sandbox.env, SVC_MODEL: 'svc-pro' }, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type(`keep these: ${words(100)}`, true);
      await term.waitFor(/\n› $/m);
      // Long words: one token each to the emulator, five by svc's estimate.
      await term.type(`and these: ${'abcdefghijklmnopqrst '.repeat(30).trim()}`, true);
      const warned = await term.waitFor(/sent anyway: \/compact summarises earlier turns[\s\S]*\n› $/m);
      expect(warned.replace(/\s+/g, ' ')).toMatch(/\(this conversation is about \d+ tokens, with 20 kept for the reply: more than svc-pro's context window of 400 \(as the server says\)/);
      // Sent anyway: the emulator answered, and no error was said.
      expect(warned).not.toContain('svc: error');
      await term.type('/usage', true);
      const usage = await term.waitFor(/last request: +\d+ of 400 tokens of the context window \(\d+%, as the server says\)/);
      expect(usage).toContain('whole conversation:');
    } finally {
      await term.kill();
    }
  });
});
