/**
 * Tab completion in a real terminal: a command name, an /image option, a /file path; and a Tab
 * in a message (typed or pasted) is sent as a tab.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox('pty-complete-key-0123456789');

describe.skipIf(!hasTmux)('svc chat, Tab in a terminal', () => {
  it('completes /ima, --asp and a /file path; a Tab in a message is text', async () => {
    writeFileSync(join(setup.sandbox.home, 'notes.md'), 'remember this\n');
    const term = await startTmux(`node "${SVC_BIN}" chat`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('/ima');
      await term.press('Tab');
      await term.waitFor(/› \/image $/m);
      // type() would hand tmux "--asp" as an option of send-keys; "--" ends them.
      await term.press('-l', '--', '--asp');
      await term.press('Tab');
      await term.waitFor(/› \/image --aspect $/m);
      await term.press('C-u');
      await term.type('/file no');
      await term.press('Tab');
      await term.waitFor(/› \/file notes\.md $/m);
      await term.press('C-u');

      await term.type('a');
      await term.press('Tab');
      await term.type('b ');
      await term.paste('c\td');
      await term.press('Enter');
      await term.waitFor(/\n\n› $/m);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
      const store = new ConversationStore(setup.sandbox.env);
      expect(store.read(store.latest()!).turns.map((turn) => turn.user)).toEqual(['a\tb c\td']);
    } finally {
      await term.kill();
    }
  });
});
