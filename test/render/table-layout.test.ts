/**
 * Table column widths in a window too narrow for the table: a cell is never broken mid-word
 * while another column has room to give; words break only when even the longest ones cannot
 * stand side by side, and then no column is wider than its longest word.
 */
import { describe, expect, it } from 'vitest';
import { fitColumns, layoutFromCells } from '../../src/render/table.js';
import { renderWhole } from '../helpers/render.js';

const TABLES = [
  '| term | meaning |\n|---|---|\n| supercalifragilistic | a word said when there is nothing else to say at all, sung in a film |',
  '| a | b | c |\n|---|---|---|\n| internationalisation | short | one two three four five six seven eight nine ten |\n| x | antidisestablishment | y |',
  '| name | **status** | note |\n|---|:-:|--:|\n| alpha | ok | the first of many rows in this table |\n| beta | *failing* | see the log for the details |',
];

/** The words of a table's cells as drawn (markers gone). */
function cellWords(table: string): Set<string> {
  return new Set(renderWhole(table, { width: 500 }).text().split(/[\s│─┼]+/).filter(Boolean));
}

describe('table column widths', () => {
  it('a long word keeps its column while a column of short words gives up room', () => {
    const table = TABLES[0]!;
    const shown = renderWhole(table, { width: 40 }).text();
    expect(shown.split('\n')[2]).toMatch(/^supercalifragilistic │ a word/);
    expect(Math.max(...shown.split('\n').map((row) => row.length))).toBeLessThanOrEqual(40);
  });

  it('at every width where the longest words fit side by side, no word on the screen is broken', () => {
    for (const table of TABLES) {
      const words = cellWords(table);
      const [header, , ...body] = table.split('\n').map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
      const layout = layoutFromCells([header!, ...body], [], 500, 0, { color: true, hyperlinks: false });
      const needed = layout.longest.reduce((sum, width) => sum + Math.max(3, width), 0) + 3 * (layout.longest.length - 1);
      for (let width = needed; width <= 120; width++) {
        const tokens = renderWhole(table, { width }).text().split(/[\s│─┼]+/).filter(Boolean);
        expect(tokens.filter((token) => !words.has(token)), `width ${width}`).toEqual([]);
      }
    }
  });

  it('the widths use the room there is, each column at most what it wants', () => {
    const widths = fitColumns([20, 60, 9], [20, 5, 9], 50);
    expect(widths.reduce((sum, width) => sum + width, 0)).toBe(50);
    expect(widths[0]).toBe(20);
    expect(widths[2]).toBe(9);
    expect(fitColumns([10, 12], [4, 6], 40)).toEqual([10, 12]);
  });

  it('when even the longest words cannot stand side by side, no column is wider than its longest word', () => {
    for (const room of [6, 12, 20, 30]) {
      const longest = [20, 20, 5];
      const widths = fitColumns([20, 40, 30], longest, room);
      expect(widths.every((width, i) => width <= Math.max(3, longest[i]!)), `room ${room}: ${widths}`).toBe(true);
      expect(widths.reduce((sum, width) => sum + width, 0)).toBeLessThanOrEqual(room);
    }
  });

  it('columns are measured as drawn: markers take no room', () => {
    const cells = [['**bold**', '[link](https://e.x)'], ['`code`', 'plain']];
    const layout = layoutFromCells(cells, [], 80, 0, { color: true, hyperlinks: false });
    expect(layout.natural).toEqual([4, 'link (https://e.x)'.length]);
    expect(layout.longest).toEqual([4, '(https://e.x)'.length]);
    // Without colour, inline code keeps its backticks (so it stays told apart): they are counted.
    expect(layoutFromCells(cells, [], 80, 0, { color: false, hyperlinks: false }).natural[0]).toBe('`code`'.length);
  });
});
