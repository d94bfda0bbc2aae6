/**
 * The listings and deletions in a real terminal (tmux, the built svc): `sessions list` is a table
 * with a header there and tab-separated lines in a pipe; `sessions delete` asks first, and the
 * answer decides.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
let sandbox: Sandbox;
const conversationsDir = () => join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');

function save(name: string, user: string, at: string): void {
  mkdirSync(conversationsDir(), { recursive: true });
  const records = [{ type: 'start', v: 1, name, created: at }, { type: 'turn', user, assistant: 'ok', at }];
  writeFileSync(join(conversationsDir(), `${name}.jsonl`), records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o600 });
}

beforeEach(() => {
  sandbox = makeSandbox();
  save('work', 'plan the week', '2025-05-01T10:00:00.000Z');
  save('notes-from-monday', 'what did we decide?', '2025-05-02T09:00:00.000Z');
});
afterEach(() => sandbox.cleanup());

describe.skipIf(!hasTmux)('in a terminal', () => {
  it('sessions list: an aligned table with a header; piped, tab-separated lines with no header', async () => {
    const term = await startTmux(`node "${SVC_BIN}" sessions list; node "${SVC_BIN}" sessions ls | sed -n l`, sandbox.env, sandbox.home);
    try {
      const screen = await term.waitFor(/\[exit 0\]/);
      expect(screen).toContain(
        'NAME               CHANGED           TURNS  FIRST LINE\n' + 'notes-from-monday  2025-05-02 09:00      1  what did we decide?\n' + 'work               2025-05-01 10:00      1  plan the week\n',
      );
      // sed -n l shows a tab as \t and ends each line with $.
      expect(screen).toContain('notes-from-monday\\t2025-05-02 09:00\\t1\\twhat did we decide?$\nwork\\t2025-05-01 10:00\\t1\\tplan the week$\n');
    } finally {
      await term.kill();
    }
  }, 30_000);

  it('sessions delete asks first: n keeps it (exit 1), y deletes it', async () => {
    const term = await startTmux(`node "${SVC_BIN}" sessions delete work; echo "[first $?]"; node "${SVC_BIN}" sessions rm work`, sandbox.env, sandbox.home);
    try {
      await term.waitFor('Delete the conversation work? (y/N)');
      await term.type('n', true);
      await term.waitFor('[first 1]');
      expect(await term.screen()).toContain('svc: nothing was deleted');
      expect(existsSync(join(conversationsDir(), 'work.jsonl'))).toBe(true);
      await term.waitFor(/\[first 1\][\s\S]*Delete the conversation work\? \(y\/N\)/);
      await term.type('y', true);
      await term.waitFor('[exit 0]');
      expect(await term.screen()).toContain('deleted work');
      expect(existsSync(join(conversationsDir(), 'work.jsonl'))).toBe(false);
    } finally {
      await term.kill();
    }
  }, 30_000);
});
