/**
 * Long notes on a terminal (issue 26, item 3): a revised prompt or a session note wraps at the
 * terminal's width at word boundaries, each later row indented under the first; in a pipe it is
 * the one line it was.
 */
import { describe, expect, it } from 'vitest';
import { noteFor, wrapNote } from '../../src/terminal/wrap-note.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';

const env = useEmulatorSandbox('wrap-key-0123456789');

describe('wrapNote', () => {
  it('wraps at word boundaries with a hanging indent, no row wider than the terminal', () => {
    const text = 'A red fox in snow, in the hush of a clear night, under a dark teal sky with a full moon.';
    const rows = wrapNote(text, 30).split('\n');
    expect(rows.every((row) => row.length <= 29)).toBe(true);
    expect(rows.slice(1).every((row) => row.startsWith('  ') && !row.startsWith('   '))).toBe(true);
    expect(rows.map((row) => row.trim()).join(' ')).toBe(text);
  });

  it('leaves a short note, and anything bound for a pipe, as it is', () => {
    expect(wrapNote('short', 80)).toBe('short');
    expect(noteFor('x '.repeat(100), { columns: 20 }, false)).toBe('x '.repeat(100));
  });
});

describe('svc image on a terminal', () => {
  it('prints the revised prompt wrapped to the width; in a pipe as one line', async () => {
    const tty = await runSvc(['image', 'a red fox in snow', '--seed', '1', '-o', 'fox.png', '--preview', 'none'], env.sandbox, { stdoutIsTTY: true, columns: 40 });
    const rows = tty.stdout.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.every((row) => row.length <= 39)).toBe(true);
    const piped = await runSvc(['image', 'a red fox in snow', '--seed', '1', '-o', 'fox2.png'], env.sandbox);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(rows.map((row) => row.trim()).join(' ')).toBe(piped.stdout.trim());
  });
});
