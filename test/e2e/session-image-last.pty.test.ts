/**
 * "Make it, then ask about it" in a real terminal (tmux), the built svc against the emulator
 * (which makes images, and describes each image a message sends): /image, then `/file last`
 * (Tab completes the word), then a question; the reply says the picture's pixel size and
 * colours. /history names the image of the turn; after /rewind the next request carries no image.
 */
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-image-last-key-0123456789';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox(KEY);

describe.skipIf(!hasTmux)('/image, then /file last, then a question', () => {
  it('the reply describes the picture made; /history names it; after /rewind it is no longer sent', async () => {
    const { env, home } = setup.sandbox;
    const term = await startTmux(`node "${SVC_BIN}" chat --session barn`, env, home);
    try {
      await term.waitFor('/help for commands');
      await term.type('/image a red barn', true);
      const made = await term.waitFor(/saved a-red-barn\.png \((\d+)×(\d+), [^)]*\)\n› $/m);
      const [, width, height] = /saved a-red-barn\.png \((\d+)×(\d+)/.exec(made)!;

      await term.type('/file l');
      await term.press('Tab');
      await term.waitFor(/› \/file last $/m);
      await term.press('Enter');
      await term.waitFor(/with your next message: \[image a-red-barn\.png, [^\]]+\]\n› $/m);
      await term.type('what is in this picture?', true);
      const described = await term.waitFor(/what is in this picture\?[\s\S]*\n\n› $/m);
      expect(described).toMatch(new RegExp(`The image you sent is a ${width}×${height} PNG image, (entirely|mostly|a mix of) [a-z ,]+\\.`));

      await term.type('/history', true);
      await term.waitFor(new RegExp(`\\[you\\] what is in this picture\\? \\[image a-red-barn\\.png, [^,\\]]+, ${width}×${height}\\]`));
      await term.type('/rewind', true);
      await term.waitFor(/drop it\? \[y\/N\] $/m);
      await term.type('y', true);
      await term.waitFor('(dropped 1 turn; 0 left;');
      await term.type('and now?', true);
      const after = await term.waitFor(/and now\?[\s\S]*\n\n› $/m);
      expect(after.slice(after.lastIndexOf('and now?'))).not.toContain('The image you sent');
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
    const store = new ConversationStore(env);
    expect(store.read('barn').turns.map((turn) => [turn.user, turn.images?.length ?? 0])).toEqual([['and now?', 0]]);
    expect(store.read('barn').images.map((image) => image.prompt)).toEqual(['a red barn']);
  }, 60_000);
});
