/**
 * What is sent is what the screen showed: random edits (typing and pasting anywhere in the line,
 * word and line motions, kills) fed to the session's line reader in a real terminal (tmux), each
 * sequence in one burst so that several keys reach readline in one read. A model of the edits
 * (readline's own rules for words) says what the line must be; the screen's input line before
 * Enter and the text read after it must both equal it.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTmux, tmuxAvailable, type TmuxSession } from '../helpers/tmux.js';

const ECHO = fileURLToPath(new URL('../helpers/line-reader-echo.mjs', import.meta.url));
const hasTmux = await tmuxAvailable();

type Edit =
  | { kind: 'type'; text: string }
  | { kind: 'paste'; text: string }
  | { kind: 'key'; key: 'C-a' | 'C-e' | 'Home' | 'End' | 'Left' | 'Right' | 'M-b' | 'M-f' | 'C-u' | 'C-k' | 'C-w' | 'BSpace' };

interface Line {
  text: string;
  cursor: number;
}

/** The length of the word before the cursor, as readline finds it (its wordLeft and Ctrl-W). */
function wordBefore(line: Line): number {
  const reversed = [...line.text.slice(0, line.cursor)].reverse().join('');
  return /^\s*(?:[^\w\s]+|\w+)?/.exec(reversed)![0].length;
}

/** What readline's line becomes after one edit. */
function apply(line: Line, edit: Edit): Line {
  const { text, cursor } = line;
  switch (edit.kind) {
    case 'type':
    case 'paste':
      return { text: text.slice(0, cursor) + edit.text + text.slice(cursor), cursor: cursor + edit.text.length };
    case 'key':
      switch (edit.key) {
        case 'C-a':
        case 'Home':
          return { text, cursor: 0 };
        case 'C-e':
        case 'End':
          return { text, cursor: text.length };
        case 'Left':
          return { text, cursor: Math.max(0, cursor - 1) };
        case 'Right':
          return { text, cursor: Math.min(text.length, cursor + 1) };
        case 'M-b':
          return { text, cursor: cursor - wordBefore(line) };
        case 'M-f':
          return { text, cursor: cursor + (cursor < text.length ? /^(?:\s+|[^\w\s]+|\w+)\s*/.exec(text.slice(cursor))![0].length : 0) };
        case 'C-u':
          return { text: text.slice(cursor), cursor: 0 };
        case 'C-k':
          return { text: text.slice(0, cursor), cursor };
        case 'C-w': {
          const start = cursor - wordBefore(line);
          return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
        }
        case 'BSpace':
          return cursor === 0 ? line : { text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1 };
      }
  }
}

const words = fc.stringMatching(/^[a-z]{1,4}( [a-z]{1,3})?$/);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 3, arbitrary: words.map((text) => ({ kind: 'type' as const, text })) },
  { weight: 2, arbitrary: words.map((text) => ({ kind: 'paste' as const, text })) },
  { weight: 5, arbitrary: fc.constantFrom('C-a', 'C-e', 'Home', 'End', 'Left', 'Right', 'M-b', 'M-f', 'C-u', 'C-k', 'C-w', 'BSpace').map((key) => ({ kind: 'key' as const, key })) },
);

describe.skipIf(!hasTmux)('editing the input line in a terminal', () => {
  let term: TmuxSession;
  let home: string;
  let rounds = 0;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'svc-test-'));
    term = await startTmux(`node "${ECHO}"`, { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, home);
    await term.waitFor('›');
  });
  afterAll(async () => {
    await term?.kill();
    rmSync(home, { recursive: true, force: true });
  });

  /** The text after the prompt on the screen's last prompt row. */
  async function inputRow(): Promise<string | undefined> {
    const rows = (await term.screen()).split('\n').filter((row) => row.startsWith('›'));
    return rows.at(-1)?.slice(2).trimEnd();
  }

  it('random edits anywhere in the line: the screen and the sent text are the model\'s line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 2, maxLength: 10 }), async (edits) => {
        rounds += 1;
        const expected = edits.reduce(apply, { text: '', cursor: 0 }).text;
        for (const one of edits) {
          if (one.kind === 'type') await term.type(one.text);
          else if (one.kind === 'paste') await term.paste(one.text);
          else await term.press(one.key);
        }
        // The screen settles on the model's line (or the wait fails with the screen).
        const shown = `› ${expected}`.trimEnd();
        await term.waitFor(new RegExp(`(^|\\n)${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
        expect(await inputRow()).toBe(expected.trimEnd());
        await term.press('Enter');
        const sent = `sent ${JSON.stringify(expected)}`;
        const screen = await term.waitFor(/\nsent ".*"\s*\n›\s*$/);
        expect(screen.split('\n').filter((row) => row.startsWith('sent ')).at(-1)).toBe(sent);
        await term.press('C-l');
      }),
      { numRuns: 25, seed: 36, endOnFailure: true },
    );
    expect(rounds).toBeGreaterThanOrEqual(25);
  }, 120_000);

  it('the cases seen by users: a paste at the start, after Alt-B, and Ctrl-U then a command', async () => {
    const cases: [string, () => Promise<void>, string][] = [
      ['hello, Ctrl-A, paste abc', async () => { await term.type('hello'); await term.press('C-a'); await term.paste('abc'); }, 'abchello'],
      ['hello, Ctrl-A, type abc at once', async () => { await term.type('hello'); await term.press('C-a'); await term.type('abc'); }, 'abchello'],
      ['hello world, Alt-B, paste abc', async () => { await term.type('hello world'); await term.press('M-b'); await term.paste('abc'); }, 'hello abcworld'],
      ['X, Alt-B, Ctrl-U, /exit', async () => { await term.type('X'); await term.press('M-b', 'C-u'); await term.type('/exit'); }, '/exitX'],
    ];
    for (const [name, keys, expected] of cases) {
      await keys();
      await term.press('Enter');
      const screen = await term.waitFor(/\nsent ".*"\s*\n›\s*$/);
      expect(screen.split('\n').filter((row) => row.startsWith('sent ')).at(-1), name).toBe(`sent ${JSON.stringify(expected)}`);
      await term.press('C-l');
    }
  }, 60_000);
});
