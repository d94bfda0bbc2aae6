/**
 * /compact in a real terminal (tmux), the built binary against the emulator: a session of
 * several turns, then /compact, whose summary (the emulator's: what each message was about)
 * streams onto the screen with the note of what was done, then a further message answered. The
 * saved conversation then sends the summary as its system note, and the turns after it.
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-compact-key-0123456789';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');
const setup = useEmulatorSandbox(KEY);

describe.skipIf(!hasTmux)('/compact in a session', () => {
  it('summarises the earlier turns as it streams, says what it did, and the conversation goes on with the summary', async () => {
    const term = await startTmux(`node "${SVC_BIN}" chat --session voyage`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      for (const message of ['tell me about boats', 'what about sails?', 'and the ocean tides', 'how do anchors work?']) {
        await term.type(message, true);
        await term.waitFor(new RegExp(`${message.replace('?', '\\?')}\\n[\\s\\S]+\\n\\n› $`, 'm'), 20_000);
      }
      await term.type('/compact', true);
      const compacted = await term.waitFor(/\/compact\n[\s\S]*undoes it\)\n\n› $/m, 20_000);
      // The emulator's summary of the transcript, streamed as a reply is, above the note (wrapped at the width: joined here).
      expect(compacted.replace(/\n\s*/g, ' ')).toMatch(/\/compact The user asked about boats and sails; the assistant answered each in turn\. \(compacted 2 turns into a summary \(\d+ tokens\); the last 2 turns are sent as they are; \/rewind 3 undoes it\)/);
      await term.type('and what of harbours?', true);
      await term.waitFor(/and what of harbours\?\n[\s\S]*harbours[\s\S]*\n\n› $/m, 20_000);
      await term.type('/history', true);
      await term.waitFor(/\[summary of turns 1–2, sent in their place\] The user asked about boats and sails/, 20_000);
      await term.press('C-d');
      await term.waitFor('[exit 0]', 20_000);
    } finally {
      await term.kill();
    }
    const sent = JSON.parse((await runSvc(['sessions', 'show', 'voyage', '--json'], setup.sandbox)).stdout) as Array<{ role: string; content: string }>;
    expect(sent[0]).toEqual({ role: 'system', content: 'Summary of the earlier conversation (its first 2 turns, summarised to save room):\nThe user asked about boats and sails; the assistant answered each in turn.' });
    expect(sent.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['and the ocean tides', 'how do anchors work?', 'and what of harbours?']);
  }, 120_000);
});
