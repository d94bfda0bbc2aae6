/**
 * How big a preview is (at most the terminal's width and two thirds of its height, aspect kept,
 * never enlarged) and how it is scaled down (area average: every source pixel counts).
 */
import { describe, expect, it } from 'vitest';
import { ASSUMED_CELL, fitImage, HALF_BLOCK_CELL, previewArea, sixelGeometry } from '../../src/preview/fit.js';
import { flatten } from '../../src/images/pixels.js';
import { scaleDown } from '../../src/images/scale.js';

describe('previewArea', () => {
  it.each([
    [{ columns: 100, rows: 40 }, { columns: 100, rows: 26 }],
    [{ columns: 80, rows: 24 }, { columns: 80, rows: 16 }],
    [{ columns: 1, rows: 1 }, { columns: 1, rows: 1 }],
  ])('%j → %j', (terminal, area) => {
    expect(previewArea(terminal)).toEqual(area);
  });
});

describe('fitImage', () => {
  it.each([
    // image, area, cell → cells, pixels
    ['square, half blocks', { width: 1024, height: 1024 }, { columns: 100, rows: 26 }, HALF_BLOCK_CELL, { columns: 52, rows: 26 }, { width: 52, height: 52 }],
    ['wide, half blocks', { width: 1512, height: 648 }, { columns: 100, rows: 26 }, HALF_BLOCK_CELL, { columns: 100, rows: 22 }, { width: 100, height: 43 }],
    ['tall, half blocks', { width: 756, height: 1344 }, { columns: 100, rows: 26 }, HALF_BLOCK_CELL, { columns: 29, rows: 26 }, { width: 29, height: 52 }],
    ['square, 10×20 cells', { width: 1024, height: 1024 }, { columns: 100, rows: 26 }, ASSUMED_CELL, { columns: 52, rows: 26 }, { width: 520, height: 520 }],
    ['16:9 in a narrow terminal', { width: 1344, height: 756 }, { columns: 40, rows: 26 }, ASSUMED_CELL, { columns: 40, rows: 11 }, { width: 400, height: 225 }],
    ['small: never enlarged', { width: 64, height: 32 }, { columns: 100, rows: 26 }, ASSUMED_CELL, { columns: 6, rows: 2 }, { width: 64, height: 32 }],
    ['tiny: at least one cell', { width: 3, height: 2 }, { columns: 100, rows: 26 }, ASSUMED_CELL, { columns: 1, rows: 1 }, { width: 3, height: 2 }],
  ] as const)('%s', (_, image, area, cell, cells, pixels) => {
    const fit = fitImage(image, area, cell);
    expect(fit).toEqual({ cells, pixels });
    expect(fit.cells.columns).toBeLessThanOrEqual(area.columns);
    expect(fit.cells.rows).toBeLessThanOrEqual(area.rows);
  });

  it('keeps the aspect ratio within a pixel of rounding, for every aspect the service makes', () => {
    for (const [width, height] of [[1024, 1024], [1344, 756], [756, 1344], [1152, 864], [864, 1152], [1512, 648]] as const) {
      for (const terminal of [{ columns: 80, rows: 24 }, { columns: 200, rows: 60 }, { columns: 30, rows: 50 }]) {
        const { pixels } = fitImage({ width, height }, previewArea(terminal), HALF_BLOCK_CELL);
        expect(Math.abs(pixels.width / pixels.height - width / height) * pixels.height).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('sixelGeometry', () => {
  const terminal = { columns: 80, rows: 24 };
  it.each([
    ['the cell size told', { cell: { width: 9, height: 18 } }, { cell: { width: 9, height: 18 }, area: { columns: 80, rows: 16 }, source: 'told' }],
    ['xterm: its text area as the sixel size, no cell size', { graphics: { width: 480, height: 312 } }, { cell: { width: 6, height: 13 }, area: { columns: 80, rows: 16 }, source: 'graphics' }],
    ['a capped sixel size: smaller cells, and the area within it', { graphics: { width: 400, height: 240 } }, { cell: { width: 5, height: 10 }, area: { columns: 80, rows: 16 }, source: 'graphics' }],
    ['a cell size told and a sixel size smaller than the screen', { cell: { width: 10, height: 20 }, graphics: { width: 400, height: 200 } }, { cell: { width: 10, height: 20 }, area: { columns: 40, rows: 10 }, source: 'told' }],
    ['nothing told', {}, { cell: ASSUMED_CELL, area: { columns: 80, rows: 16 }, source: 'assumed' }],
  ])('%s', (_, told, geometry) => {
    expect(sixelGeometry(terminal, told)).toEqual(geometry);
  });
});

describe('scaleDown', () => {
  const solid = (width: number, height: number, rgba: number[]) => {
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i += 1) data.set(rgba, i * 4);
    return { width, height, data };
  };

  it('averages every source pixel: a fine checkerboard becomes grey, not black or white', () => {
    const board = solid(64, 64, [0, 0, 0, 255]);
    for (let y = 0; y < 64; y += 1) for (let x = 0; x < 64; x += 1) if ((x + y) % 2 === 0) board.data.set([255, 255, 255, 255], (y * 64 + x) * 4);
    // 64 → 7: not a whole ratio, so output pixels cover fractions of source pixels.
    const small = scaleDown(board, 7, 7);
    for (let i = 0; i < 49; i += 1) {
      expect(small.data[i * 4]).toBeGreaterThan(110);
      expect(small.data[i * 4]).toBeLessThan(145);
      expect(small.data[i * 4 + 3]).toBe(255);
    }
  });

  it('is the exact mean where blocks divide evenly', () => {
    const image = { width: 2, height: 2, data: Uint8Array.of(0, 0, 0, 255, 100, 0, 0, 255, 0, 200, 0, 255, 0, 0, 40, 255) };
    expect([...scaleDown(image, 1, 1).data]).toEqual([25, 50, 10, 255]);
  });

  it('weights colour by alpha: a transparent pixel lends no colour, only transparency', () => {
    const image = { width: 2, height: 1, data: Uint8Array.of(255, 0, 0, 0, 0, 0, 255, 255) };
    expect([...scaleDown(image, 1, 1).data]).toEqual([0, 0, 255, 128]);
  });

  it('keeps a solid colour solid, and an unchanged size is the same pixels', () => {
    const image = solid(300, 200, [12, 200, 99, 255]);
    const small = scaleDown(image, 41, 17);
    expect(new Set(Array.from({ length: 41 * 17 }, (_, i) => [...small.data.subarray(i * 4, i * 4 + 4)].join()))).toEqual(new Set(['12,200,99,255']));
    expect(scaleDown(image, 300, 200)).toBe(image);
  });

  it('refuses to enlarge', () => {
    expect(() => scaleDown(solid(4, 4, [0, 0, 0, 255]), 5, 4)).toThrow(RangeError);
  });
});

describe('flatten', () => {
  it('lays pixels over the background and leaves the input alone', () => {
    const image = { width: 2, height: 1, data: Uint8Array.of(255, 255, 255, 51, 10, 20, 30, 255) };
    expect([...flatten(image, [0, 0, 100]).data]).toEqual([51, 51, 131, 255, 10, 20, 30, 255]);
    expect(image.data[3]).toBe(51);
  });
});
