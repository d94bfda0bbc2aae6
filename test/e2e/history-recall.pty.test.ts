/**
 * History recall of multi-line messages (issue 26, item 1), in a real terminal (tmux): a message
 * typed as `\` continuation lines or as a `"""` block comes back whole with one Up (its line
 * breaks shown as ␤, as a paste's are), is sent again as one message with Enter, and is kept
 * as one entry in the saved input history, not one entry per line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
const setup = useEmulatorSandbox('history-key-0123456789');

describe.skipIf(!hasTmux)('Up brings a multi-line message back whole', () => {
  it('a \\ continuation and a """ block: one entry each, editable, sent again as one message', async () => {
    const term = await startTmux(`node "${SVC_BIN}" chat --session recall`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('first line \\', true);
      await term.type('second line', true);
      await term.waitFor(/\n\n› \s*$/);
      await term.type('"""', true);
      await term.type('block one', true);
      await term.type('block two"""', true);
      await term.waitFor(/block two"""\n[\s\S]*\n\n› \s*$/);

      await term.press('Up');
      await term.waitFor(/› block one␤block two\s*$/);
      await term.press('Up');
      await term.waitFor(/› first line ␤second line\s*$/);
      // Sent again as it is: one message, the same text as the first time.
      await term.press('Enter');
      await term.waitFor(/\n\n› \s*$/);
    } finally {
      await term.kill();
    }
    const turns = readFileSync(join(setup.sandbox.home, 'data', 'svc', 'conversations', 'recall.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; user?: string })
      .filter((record) => record.type === 'turn')
      .map((record) => record.user);
    expect(turns).toEqual(['first line \nsecond line', 'block one\nblock two', 'first line \nsecond line']);
    const history = readFileSync(join(setup.sandbox.home, 'state', 'svc', 'input-history.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string);
    expect(history).toEqual(['first line ␤second line', 'block one␤block two', 'first line ␤second line']);
  }, 30_000);

  it('--no-save: Up still recalls the earlier sessions\' inputs, and this session\'s are not written', async () => {
    const historyFile = join(setup.sandbox.home, 'state', 'svc', 'input-history.jsonl');
    const before = readFileSync(historyFile, 'utf8');
    expect(before).toContain('block one␤block two');
    const term = await startTmux(`node "${SVC_BIN}" chat --no-save`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('private words', true);
      await term.waitFor(/\n\n› \s*$/);
      await term.press('Up');
      await term.waitFor(/› private words\s*$/);
      await term.press('Up');
      await term.waitFor(/› first line ␤second line\s*$/);
      await term.press('C-u', 'C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
    expect(readFileSync(historyFile, 'utf8')).toBe(before);
  }, 30_000);
});
