/**
 * Editing a typed line that takes several rows, in a real terminal (tmux, 100 columns): Home and
 * a character typed there redraw the line in place. Node's readline lost count of the line's
 * rows when several characters reached it in one read at the end of the line, and redrew from
 * its last row, leaving the rows above on the screen (key-feed.ts hands it one key a read).
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
const setup = useEmulatorSandbox('editing-key-0123456789');

describe.skipIf(!hasTmux)('a line of three rows', () => {
  it('Home, then a character: the line redrawn in place, no stale rows left above it', async () => {
    const words = Array.from({ length: 30 }, (_, n) => `word${String(n + 1).padStart(3, '0')}`).join(' ');
    const term = await startTmux(`node "${SVC_BIN}" chat --no-save`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type(words, false);
      await term.waitFor(/word030\s*$/);
      await term.press('Home');
      await term.type('Z', false);
      // The prompt with the edited line, once; the line as typed before the edit is gone.
      const screen = await term.waitFor(/› Zword001/);
      expect(screen.match(/›/g)).toHaveLength(1);
      expect(screen).not.toMatch(/› word001/);
      expect(screen.replace(/\n/g, '')).toContain(`› Z${words}`);
    } finally {
      await term.kill();
    }
  }, 30_000);
});
