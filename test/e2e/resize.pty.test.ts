/**
 * The window resized while a reply streams, in a real terminal (tmux, which re-wraps its lines on
 * resize): shrunk 100 → 60 and grown 60 → 100 in the middle of a paragraph, a list item and a
 * quote, and around a code block. The row being written is drawn again at the new width, every
 * row drawn after a resize fits it with its words whole, every word is on the screen once, and
 * code lines are left whole for the terminal to wrap.
 *
 * The reply comes from a scripted server the test feeds piece by piece, so that each resize lands
 * in the middle of a row: the next piece goes only once the screen shows the last one (and, after
 * a shrink, the row redrawn).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { chunk, useScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable, type TmuxSession } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const setup = useEmulatorSandbox('resize-pty-key-0123456789');
const scripted = useScriptedServer();

/** `prefix01 prefix02 …`: words that tell where they belong, so a piece of one is never taken for a word. */
const words = (prefix: string, from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}`);
const text = (prefix: string, from: number, to: number): string => `${words(prefix, from, to).join(' ')} `;

// Code lines: one that fits 100 columns but not 60, and two wider than 60 being written across a resize.
const CODE_1 = 'totals = {name: sum(item.price for item in items if item.name == name) for name in names}';
const CODE_2 = `print(${'"a rather long string literal", '.repeat(4)}"end")`;
const CODE_3 = 'result = compute(first_argument, second_argument, third_argument_here)';

/** Rows of the screen (wrapped rows joined, as tmux's `capture-pane -J` gives them) holding any of `wanted`. */
function linesWith(screen: string, wanted: readonly string[]): string[] {
  return screen.split('\n').filter((line) => wanted.some((word) => line.split(/\s+/).includes(word)));
}
const widest = (lines: readonly string[]): number => Math.max(...lines.map((line) => [...line.trimEnd()].length));

describe.skipIf(!hasTmux)('the window resized while a reply streams', () => {
  it('shrink and grow mid-paragraph, mid-list item, mid-quote and around code: each row redrawn at the new width, every word once', async () => {
    let stream: ServerResponse | undefined;
    let opened = (): void => {};
    const open = new Promise<void>((resolve) => (opened = resolve));
    scripted.server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      stream = res;
      opened();
      await new Promise((resolve) => res.on('close', resolve));
    });
    const send = (piece: string) => new Promise<void>((resolve) => stream!.write(chunk(piece), () => resolve()));
    const env: Record<string, string> = { ...setup.sandbox.env, SVC_BASE_URL: scripted.server.baseUrl, TERM: 'xterm-256color' };
    delete env.NO_COLOR;
    const term = await startTmux(`node "${SVC_BIN}" chat --no-save "q"`, env, setup.sandbox.home);

    /** Send a piece and wait until the screen shows its last word. */
    const feed = async (piece: string, last: string): Promise<void> => {
      await send(piece);
      await term.waitFor(last);
    };
    /**
     * Shrink to 60 with a row of about 80 columns being written: tmux splits it in two, and the
     * test waits until svc has drawn it again, the last word now ending a row of at most 60.
     */
    const shrink = async (t: TmuxSession, last: string): Promise<void> => {
      await t.resize(60);
      await t.waitFor(new RegExp(`^.{0,60}${last}$`, 'm'));
    };
    try {
      await open;
      // A paragraph: 25 words (a full row, then 76 columns being written), shrunk, 20 more, grown, the rest.
      await feed(text('para', 1, 25), 'para25');
      await shrink(term, 'para25');
      await feed(text('para', 26, 45), 'para45');
      await term.resize(100);
      await feed(text('para', 46, 47), 'para47');
      await feed(`${text('para', 48, 70)}\n\n- ${text('item', 1, 25)}`, 'item25');
      await shrink(term, 'item25');
      await feed(text('item', 26, 45), 'item45');
      await term.resize(100);
      await feed(text('item', 46, 47), 'item47');
      await feed(`${text('item', 48, 70)}\n\n> ${text('quot', 1, 25)}`, 'quot25');
      await shrink(term, 'quot25');
      await feed(text('quot', 26, 45), 'quot45');
      await term.resize(100);
      await feed(text('quot', 46, 47), 'quot47');
      // Code: a line drawn at 100, a line wider than 100 being written as the window shrinks to
      // 60, another wider than 60 being written as it grows back.
      await feed(`${text('quot', 48, 70)}\n\n\`\`\`python\n${CODE_1}\n${CODE_2.slice(0, 110)}`, CODE_2.slice(90, 110));
      await term.resize(60);
      await feed(`${CODE_2.slice(110)}\n${CODE_3.slice(0, 65)}`, CODE_3.slice(50, 65));
      await term.resize(100);
      await send(`${CODE_3.slice(65)}\n\`\`\`\n\nDone.`);
      stream!.end(`${chunk(undefined, 'stop')}data: [DONE]\n\n`);
      const screen = await term.waitFor('[exit 0]', 20_000);

      // Every word of the reply on the screen once, in order (tmux's re-wrapping of rows drawn
      // before a resize undone by reading rows joined).
      const prose = screen.slice(0, screen.indexOf('\npython\n')).split(/\s+/);
      expect(prose.filter((word) => /^(para|item|quot)\d\d$/.test(word))).toEqual([...words('para', 1, 70), ...words('item', 1, 70), ...words('quot', 1, 70)]);
      expect(prose.filter((word) => !/^(para|item|quot)\d\d$|^[•│]?$/.test(word))).toEqual([]);
      for (const prefix of ['para', 'item', 'quot']) {
        // The row being written when the window shrank (from word 15 on), and the rows after it
        // finished before it grew (8 words a row at 60: up to word 38), at most 60 wide.
        expect(widest(linesWith(screen, words(prefix, 15, 38))), prefix).toBeLessThanOrEqual(60);
        // After it grew: rows wider than 60 again, never wider than 100.
        expect(widest(linesWith(screen, words(prefix, 48, 70))), prefix).toBeGreaterThan(60);
        expect(widest(linesWith(screen, words(prefix, 46, 70))), prefix).toBeLessThanOrEqual(100);
      }
      expect(screen).toMatch(/^• item01 /m);
      expect(linesWith(screen, words('item', 2, 70)).every((line) => /^(• | {2})item/.test(line))).toBe(true);
      expect(linesWith(screen, words('quot', 1, 70)).every((line) => line.startsWith('│ quot'))).toBe(true);
      // Code lines whole, once each: never re-wrapped at word boundaries (the terminal wraps them).
      const lines = screen.split('\n').map((line) => line.trimEnd());
      for (const code of [CODE_1, CODE_2, CODE_3]) expect(lines.filter((line) => line === code), code).toHaveLength(1);
      expect(lines).toContain('Done.');
    } finally {
      stream?.destroy();
      await term.kill();
    }
  }, 60_000);
});
