/** The aligned table every listing shows on a terminal (src/terminal/table.ts). */
import { describe, expect, it } from 'vitest';
import { tableLines, tableText, terminalWidth } from '../../src/terminal/table.js';
import { textWidth } from '../../src/terminal/width.js';

describe('tableLines', () => {
  it('pads each column to its widest cell, header included, two spaces apart, with no trailing spaces', () => {
    expect(tableLines([{ title: 'NAME' }, { title: 'SOURCE' }, { title: 'NOTE' }], [['commit', 'built-in', 'x'], ['a', 'file', '']])).toEqual([
      'NAME    SOURCE    NOTE',
      'commit  built-in  x',
      'a       file',
    ]);
  });

  it('counts terminal columns, not characters: a wide character takes two, a combining mark none', () => {
    const lines = tableLines([{ title: 'NAME' }, { title: 'NEXT' }], [['日本', 'a'], ['e\u0301te\u0301', 'b'], ['x', 'c']]);
    // Every second column starts at the same terminal column.
    expect(lines.map((line) => textWidth(line.slice(0, line.lastIndexOf(' ') + 1)))).toEqual([6, 6, 6, 6]);
    expect(lines[1]).toBe('日本  a');
  });

  it('right-aligns a column that asks for it', () => {
    expect(tableLines([{ title: 'N', align: 'right' }, { title: 'NAME' }], [['7', 'a'], ['1234', 'b']])).toEqual(['   N  NAME', '   7  a', '1234  b']);
  });

  it('neutralises control characters, and shows a line break or a tab as its picture, so no cell can break its row or drive the terminal', () => {
    const [, row] = tableLines([{ title: 'A' }, { title: 'B' }], [['\u001b]0;pwned\u0007', 'one\ntwo\tthree']]);
    expect(row).toBe('␛]0;pwned␇  one␤two␉three');
    expect(row).not.toMatch(/[\u0000-\u001f]/);
  });

  it('cuts the last column to the width, with …, so no row wraps', () => {
    const lines = tableLines([{ title: 'NAME' }, { title: 'FIRST LINE' }], [['a', 'x'.repeat(50)], ['b', '短い行です'.repeat(6)], ['c', 'short']], { width: 30 });
    expect(lines.map(textWidth).every((width) => width <= 30)).toBe(true);
    expect(lines[1]).toBe(`a     ${'x'.repeat(23)}…`);
    expect(lines[2]!.endsWith('…')).toBe(true);
    expect(lines[3]).toBe('c     short');
  });

  it('leaves a row to wrap rather than cut the last column below a useful room', () => {
    const long = 'y'.repeat(40);
    const lines = tableLines([{ title: 'NAME' }, { title: 'TEXT' }], [['n'.repeat(20), long]], { width: 30 });
    expect(lines[1]).toBe(`${'n'.repeat(20)}  ${long}`);
  });
});

describe('tableText', () => {
  it('is the lines, each ended, and nothing at all without rows', () => {
    expect(tableText([{ title: 'A' }], [['1']])).toBe('A\n1\n');
    expect(tableText([{ title: 'A' }], [])).toBe('');
  });

  it('terminalWidth: the columns of a terminal stream, none for a pipe', () => {
    expect(terminalWidth({ columns: 120 })).toBe(120);
    expect(terminalWidth({ columns: 0 })).toBeUndefined();
    expect(terminalWidth({})).toBeUndefined();
  });
});
