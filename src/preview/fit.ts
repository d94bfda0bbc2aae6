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
  /** Which limit the picture meets: a terminal that keeps the aspect ratio itself needs only that one. */
  limit: 'columns' | 'rows';
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
  return { cells: { columns, rows }, pixels: { width, height }, limit: byRows < Math.min(1, byColumns) ? 'rows' : 'columns' };
}
