/**
 * How big a preview is: at most the terminal's width and about two thirds of its height (so the
 * prompt and the lines around it stay in view), the picture's aspect ratio kept, never enlarged
 * past its own pixels.
 */

/** A size in terminal cells. */
export interface CellSize {
  columns: number;
  rows: number;
}

/** A size in pixels. */
export interface PixelSize {
  width: number;
  height: number;
}

/**
 * The pixel size of one cell assumed for kitty, iTerm2 and sixel. Terminals do not say it without
 * a query (CSI 16 t) many do not answer; 10×20 is the common size of a 12–13 pt monospace font,
 * and the ~1:2 shape of a cell is what keeps the aspect ratio right, which matters more than the
 * exact size (kitty and iTerm2 scale the picture to the cells they are given anyway).
 */
export const ASSUMED_CELL: PixelSize = { width: 10, height: 20 };

/** A half-block cell shows two pixels stacked: one column, two rows of pixels. */
export const HALF_BLOCK_CELL: PixelSize = { width: 1, height: 2 };

/** The area a preview may use in a terminal of `terminal` cells. */
export function previewArea(terminal: CellSize): CellSize {
  return { columns: Math.max(1, terminal.columns), rows: Math.max(1, Math.floor((terminal.rows * 2) / 3)) };
}

export interface Fit {
  /** The cells the picture covers. */
  cells: CellSize;
  /** The pixels to draw into those cells (cells × cell size, at most the image's own). */
  pixels: PixelSize;
}

/**
 * Fit `image` into `area`, with cells of `cell` pixels: the largest scale that keeps the image
 * inside both limits (and at most 1), then the cell counts rounded, at least one each.
 */
export function fitImage(image: PixelSize, area: CellSize, cell: PixelSize): Fit {
  const byColumns = (area.columns * cell.width) / image.width;
  const byRows = (area.rows * cell.height) / image.height;
  const scale = Math.min(1, byColumns, byRows);
  const width = Math.max(1, Math.min(image.width, Math.round(image.width * scale)));
  const height = Math.max(1, Math.min(image.height, Math.round(image.height * scale)));
  const columns = Math.max(1, Math.min(area.columns, Math.round(width / cell.width)));
  const rows = Math.max(1, Math.min(area.rows, Math.round(height / cell.height)));
  return { cells: { columns, rows }, pixels: { width, height } };
}

/** What the terminal told of its pixels (probe.ts): its cell size, and the largest sixel picture it draws. */
export interface ToldSizes {
  cell?: PixelSize | undefined;
  graphics?: PixelSize | undefined;
}

/** A sixel picture's cell size and the area it may use, and where the cell size came from. */
export interface SixelGeometry {
  cell: PixelSize;
  area: CellSize;
  source: 'told' | 'graphics' | 'assumed';
}

/**
 * Sixel is drawn one image pixel per screen pixel, so its fit needs the real cell size: the one
 * the terminal told; else its largest sixel picture divided by its cells (xterm reports its text
 * area there; when that is capped, the cells come out smaller than they are, and the picture
 * smaller than it could be, never too big); else the assumed one. The area never exceeds the
 * largest picture the terminal draws: it would cut the rest off.
 */
export function sixelGeometry(terminal: CellSize, told: ToldSizes): SixelGeometry {
  const area = previewArea(terminal);
  const { graphics } = told;
  let cell = told.cell;
  let source: SixelGeometry['source'] = 'told';
  if (!cell && graphics) {
    const derived = { width: Math.floor(graphics.width / terminal.columns), height: Math.floor(graphics.height / terminal.rows) };
    if (derived.width >= 2 && derived.height >= 2) {
      cell = derived;
      source = 'graphics';
    }
  }
  if (!cell) {
    cell = ASSUMED_CELL;
    source = 'assumed';
  }
  if (graphics) {
    area.columns = Math.max(1, Math.min(area.columns, Math.floor(graphics.width / cell.width)));
    area.rows = Math.max(1, Math.min(area.rows, Math.floor(graphics.height / cell.height)));
  }
  return { cell, area, source };
}
