/**
 * /rewind and /fork in a real terminal (tmux), against the emulator: /rewind shows what goes and
 * asks (y/N) before dropping anything; the answer is not kept for Up; /fork goes on in the copy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-fork-key-0123456789abcdef';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox(KEY);

describe.skipIf(!hasTmux)('/rewind and /fork in a terminal', () => {
  it('/rewind asks before dropping (n keeps, y drops); /fork goes on in the copy, the original kept', async () => {
    const { env, home } = setup.sandbox;
    const term = await startTmux(`node "${SVC_BIN}" chat --session trip`, env, home);
    try {
      await term.waitFor('/help for commands');
      for (const question of ['first question', 'second question', 'third question']) {
        await term.type(question, true);
        await term.waitFor(new RegExp(`${question}[\\s\\S]*\\n\\n› $`, 'm'));
      }
      await term.type('/rewind 2', true);
      await term.waitFor(/these 2 turns go:\n {2}2\. \[you\] second question\n[^\n]*\n {2}3\. \[you\] third question\n[^\n]*\ndrop them\? \[y\/N\] $/m);
      await term.type('n', true);
      await term.waitFor('(nothing dropped)');
      await term.type('/rewind 2', true);
      await term.waitFor(/\(nothing dropped\)[\s\S]*drop them\? \[y\/N\] $/m);
      await term.type('y', true);
      await term.waitFor('(dropped 2 turns; 1 left; `svc sessions show trip --all` still shows them)');
      await term.type('/fork', true);
      await term.waitFor('(forked "trip" as "trip-fork", 1 turn; going on in "trip-fork", "trip" stays as it was)');
      await term.type('fourth question', true);
      await term.waitFor(/fourth question[\s\S]*\n\n› $/m);
      await term.press('C-d');
      const end = await term.waitFor('[exit 0]');
      expect(end).toContain('saved as "trip-fork"');
    } finally {
      await term.kill();
    }
    const store = new ConversationStore(env);
    expect(store.read('trip').turns.map((turn) => turn.user)).toEqual(['first question']);
    expect(store.read('trip-fork').turns.map((turn) => turn.user)).toEqual(['first question', 'fourth question']);
    // The answers to the question are not in the input history; what was typed is.
    const history = readFileSync(join(env.XDG_STATE_HOME!, 'svc', 'input-history.jsonl'), 'utf8');
    expect(history).toContain('"/rewind 2"');
    expect(history.split('\n')).not.toContain('"y"');
    expect(history.split('\n')).not.toContain('"n"');
  });
});
