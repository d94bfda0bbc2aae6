/**
 * The terminal resized while a reply streams: the row being written is drawn again at the new
 * width (every row svc draws from then on fits it, words whole), nothing is shown twice or lost,
 * and no row above it is touched. Checked on the test terminal both ways a real one behaves: as
 * tmux does (each line re-wrapped to the new width, the cursor at the same place in it) and as
 * xterm does (rows cut at the new edge).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createStreamingRenderer } from '../../src/render/streaming-renderer.js';
import { reflowsOnResize, terminalRenderer } from '../../src/render/terminal-renderer.js';
import { highlighter, renderWhole } from '../helpers/render.js';
import { TerminalScreen } from '../helpers/terminal-screen.js';

/** A piece of text, or the terminal resized (and, with `refresh`, the renderer told at once, as SIGWINCH does). */
type Step = string | { columns: number; refresh?: boolean };

function run(steps: readonly Step[], options: { width: number; reflow: boolean; color?: boolean }): TerminalScreen {
  let columns = options.width;
  const screen = new TerminalScreen(columns);
  const renderer = createStreamingRenderer({
    columns: () => columns,
    reflows: options.reflow,
    color: options.color ?? false,
    hyperlinks: false,
    highlighter: highlighter(),
    write: (bytes) => screen.write(bytes),
  });
  for (const step of steps) {
    if (typeof step === 'string') {
      renderer.push(step);
      continue;
    }
    columns = step.columns;
    screen.resize(step.columns, options.reflow);
    if (step.refresh) renderer.refresh();
  }
  renderer.end();
  return screen;
}

const words = (prefix: string, from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}`);
const text = (prefix: string, from: number, to: number): string => words(prefix, from, to).join(' ');
const rows = (screen: string): string[] => screen.split('\n');
const widest = (lines: readonly string[]): number => Math.max(...lines.map((line) => [...line].length));
const HOW = [
  ['re-wraps (tmux)', true],
  ['cuts (xterm)', false],
] as const;

describe.each(HOW)('a terminal that %s its lines on resize', (_how, reflow) => {
  for (const refresh of [true, false]) {
    it(`shrinking mid-paragraph (${refresh ? 'redrawn at SIGWINCH' : 'redrawn with the next piece'}): the row being written and the rest at the new width`, () => {
      // 40 columns: a first row of p01..p05 (34 columns) is finished; p06..p10 is being written when it shrinks to 20.
      const screen = run([`${text('word', 1, 10)} `, { columns: 20, refresh }, `${text('word', 11, 16)}\n`], { width: 40, reflow });
      const shown = rows(screen.lines());
      // The finished row stays as drawn (re-wrapped by the terminal, or cut at its edge).
      expect(shown[0]).toBe(reflow ? text('word', 1, 5) : text('word', 1, 5).slice(0, 20));
      // From the row being written on, exactly what the same text gives at 20 columns.
      expect(shown.slice(1)).toEqual(rows(renderWhole(text('word', 6, 16), { width: 20 }).text()));
      expect(widest(shown.slice(1))).toBeLessThanOrEqual(20);
      expect(screen.rewrites).toBe(0);
    });
  }

  it('growing mid-paragraph: the row being written fills to the new width', () => {
    const screen = run([`${text('word', 1, 5)} `, { columns: 40, refresh: true }, `${text('word', 6, 16)}\n`], { width: 20, reflow });
    const shown = rows(screen.lines());
    expect(shown[0]).toBe(text('word', 1, 3));
    expect(shown.slice(1)).toEqual(rows(renderWhole(text('word', 4, 16), { width: 40 }).text()));
    expect(screen.rewrites).toBe(0);
  });

  it('a list item and a quote keep their bullet, hanging indent and bars when drawn again', () => {
    const screen = run(
      [`- ${text('item', 1, 8)} `, { columns: 24, refresh: true }, `${text('item', 9, 14)}\n\n> ${text('quot', 1, 8)} `, { columns: 40 }, `${text('quot', 9, 20)}\n`],
      { width: 40, reflow },
    );
    const shown = rows(screen.lines());
    const item = shown.slice(0, shown.indexOf(''));
    const quote = shown.slice(shown.indexOf('') + 1);
    expect(item[0]).toMatch(/^• item01/);
    expect(item.slice(1).every((row) => /^ {2}item\d\d( item\d\d)*$/.test(row))).toBe(true);
    // Drawn again at 24 when it shrank: the rows of the item after its first fit.
    expect(widest(item.slice(1))).toBeLessThanOrEqual(24);
    expect(quote.every((row) => /^│ quot\d\d( quot\d\d)*$/.test(row))).toBe(true);
    // The quote began at 24 and grew back to 40 mid-row: its later rows fill past 24.
    expect(widest(quote.slice(1))).toBeGreaterThan(24);
    expect(widest(quote)).toBeLessThanOrEqual(40);
    // Every word once, in order (the one lost is the terminal's doing: xterm cut the first row at its new edge).
    const read = shown.join(' ').split(/\s+/).filter((word) => /\d\d$/.test(word));
    expect(read).toEqual([...words('item', 1, reflow ? 14 : 3), ...(reflow ? [] : words('item', 6, 14)), ...words('quot', 1, 20)]);
    expect(screen.rewrites).toBe(0);
  });

  it('a code line is not re-wrapped: written back as it was, left to the terminal once wider than the window', () => {
    const long = 'const total = items.map((item) => item.price).reduce((a, b) => a + b, 0);';
    const screen = run(['```js\nconst a = 1;\n', long.slice(0, 50), { columns: 30, refresh: true }, `${long.slice(50)}\nlet b = 2;\n\`\`\`\n`], { width: 60, reflow, color: true });
    // The code line once, whole (the terminal wrapped it where the edge fell), and not redrawn
    // highlighted when it ended, since it no longer fitted a row.
    expect(rows(screen.lines())).toEqual(['js', 'const a = 1;', long, 'let b = 2;']);
    expect(rows(screen.text())).toContain(long.slice(0, 30));
    const styled = screen.styled();
    expect(styled).toContain('{|}const total');
    // A line that fits the new width is still highlighted.
    expect(styled).toMatch(/\{[0-9;]+\|\}let/);
    expect(screen.rewrites).toBe(0);
  });

  it('a heading line held for an underline: still a heading when it fits, a paragraph line then a rule when it no longer does', () => {
    const fits = run(['Short title\n', { columns: 20, refresh: true }, '---\nbody\n'], { width: 40, reflow, color: true });
    expect(fits.styled()).toBe(renderWhole('## Short title\nbody', { width: 20, color: true }).styled());
    const wide = run(['A title much wider than twenty\n', { columns: 20, refresh: true }, '---\n'], { width: 40, reflow });
    expect(rows(wide.lines())).toEqual(['A title much wider', 'than twenty', '─'.repeat(20)]);
    expect(wide.rewrites).toBe(0);
  });

  it('a table row being previewed, and a held table, are drawn at the width they end at', () => {
    const table = '| name | description |\n|---|---|\n| alpha | the first letter of the greek alphabet |\n';
    const screen = run([table.slice(0, 70), { columns: 30, refresh: true }, table.slice(70)], { width: 60, reflow });
    const shown = rows(screen.lines());
    expect(widest(shown)).toBeLessThanOrEqual(30);
    expect(shown.join(' ').split(/[\s│─┼]+/).filter(Boolean)).toEqual('name description alpha the first letter of the greek alphabet'.split(' '));
  });
});

describe('resizing, the details', () => {
  it('a row exactly as wide as a whole number of new rows is replaced, not shown twice', () => {
    // 20 columns of text on the row being written, the window shrunk to 10: two full rows.
    const screen = run(['aaaa bbbb cccc ddddd', { columns: 10, refresh: true }, ' eeee\n'], { width: 40, reflow: true });
    expect(rows(screen.lines())).toEqual(['aaaa bbbb', 'cccc ddddd', 'eeee']);
  });

  it('wide characters: the rows counted cell by cell (one that does not fit at the edge starts the next row)', () => {
    // 50 columns of CJK text take 6 rows of a 10-column window, not 50 / 10: where a space puts one
    // a column short of the edge, it starts the next row.
    const line = '漢字漢字漢字漢字漢字 漢字漢字漢字漢字漢字 漢字漢字';
    const screen = run([line, { columns: 10, refresh: true }, '\n'], { width: 60, reflow: true });
    expect(screen.lines()).toBe(renderWhole(line, { width: 10 }).text());
    expect(screen.rewrites).toBe(0);
  });

  it('nothing is written when the width did not change, or when no row is being written', () => {
    let columns = 40;
    let bytes = '';
    const renderer = createStreamingRenderer({ columns: () => columns, reflows: true, color: false, hyperlinks: false, write: (out) => (bytes += out) });
    renderer.push('one two\n\n');
    const before = bytes;
    renderer.refresh();
    columns = 20;
    renderer.refresh();
    expect(bytes).toBe(before);
    renderer.push('three');
    columns = 30;
    renderer.refresh();
    // The row is cleared and drawn again.
    expect(bytes.slice(before.length)).toBe('three\r\u001b[Kthree');
  });

  it('a table longer than the rows held keeps its widths while they fit, and is fitted again when the window shrinks', () => {
    const body = Array.from({ length: 45 }, (_, i) => `| r${i} | some words in a cell ${i} |`).join('\n');
    const steps: Step[] = [`| k | value |\n|---|---|\n${body.slice(0, body.indexOf('| r42'))}`, { columns: 20, refresh: true }, `${body.slice(body.indexOf('| r42'))}\n`];
    const shown = rows(run(steps, { width: 60, reflow: true }).lines());
    const last = shown.slice(shown.findIndex((row) => row.startsWith('r42')));
    expect(widest(shown.slice(0, shown.indexOf(last[0]!)))).toBeGreaterThan(20);
    expect(widest(last)).toBeLessThanOrEqual(20);
    expect(last.join(' ').split(/[\s│]+/).filter(Boolean)).toEqual('r42 some words in a cell 42 r43 some words in a cell 43 r44 some words in a cell 44'.split(' '));
  });

  it('which terminals re-wrap the row under the cursor, from the environment', () => {
    const cases: [Record<string, string>, boolean][] = [
      [{ TMUX: '/tmp/tmux-1/default,1,0' }, true],
      [{ TERM: 'xterm-kitty' }, true],
      [{ KITTY_WINDOW_ID: '1' }, true],
      [{ TERM_PROGRAM: 'iTerm.app' }, true],
      [{ LC_TERMINAL: 'iTerm2' }, true],
      [{ VTE_VERSION: '7600' }, true],
      [{ WT_SESSION: 'b2c4' }, true],
      [{ TERM: 'xterm-256color' }, false],
      [{}, false],
      // GNU screen, alone or with tmux: not known to, so nothing above the row is touched.
      [{ STY: '123.pts-0', TMUX: '/tmp/tmux-1/default,1,0' }, false],
      // xterm started from a VTE terminal inherits VTE_VERSION.
      [{ XTERM_VERSION: 'XTerm(390)', VTE_VERSION: '7600' }, false],
    ];
    for (const [env, expected] of cases) expect(reflowsOnResize(env), JSON.stringify(env)).toBe(expected);
  });

  it('the terminal renderer redraws at the stream’s resize event, and stops listening when it ends', () => {
    const stream = Object.assign(new EventEmitter(), { columns: 40 });
    let bytes = '';
    const renderer = terminalRenderer({ stream, env: { TMUX: 'x', NO_COLOR: '1' }, write: (out) => (bytes += out) });
    renderer.push('aaaa bbbb cccc dddd eeee ffff');
    const before = bytes;
    stream.columns = 20;
    stream.emit('resize');
    // The two rows the window, now 20 wide, re-wrapped it to are cleared one by one (never the
    // screen below the cursor, which tmux takes for clearing the screen when the cursor is at its
    // top left, its rows sent to the scrollback), then it is laid out at 20.
    expect(bytes.slice(before.length)).toBe('\u001b[1A\r\u001b[K\u001b[1B\r\u001b[K\u001b[1Aaaaa bbbb cccc dddd\neeee ffff');
    renderer.end();
    expect(stream.listenerCount('resize')).toBe(0);
  });
});
