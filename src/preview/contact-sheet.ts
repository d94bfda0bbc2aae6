/**
 * Several variants of one prompt as one preview (`svc image -n 4`): each image scaled to the same
 * height, side by side on a dark ground with a gap between them, drawn as one picture by the
 * protocol the terminal has (show.ts), then one line of labels under it, each starting under
 * its own image: `1 · seed 42`. The labels are svc's own words (numbers), so nothing from the
 * service is in them.
 */
import { readFile } from 'node:fs/promises';
import type { IO } from '../terminal/io.js';
import { decodeRows } from '../images/decode.js';
import { rowsOf, type Pixels } from '../images/pixels.js';
import { scaleDown } from '../images/scale.js';
import { showDecoded, type PreviewOptions, type PreviewResult } from './show.js';

export interface SheetTile {
  path: string;
  /** Under the image: "1 · seed 42". */
  label: string;
}

/** Each image's height on the sheet, in pixels, before the sheet is fitted to the terminal. */
const TILE_HEIGHT = 384;
const GAP = 16;
const GROUND = 0x1c;

/** The sheet's pixels and where each tile starts, from the decoded images. */
export async function composeSheet(paths: readonly string[]): Promise<{ sheet: Pixels; starts: number[] }> {
  const tiles: Pixels[] = [];
  for (const path of paths) {
    const rows = await decodeRows(await readFile(path));
    const height = Math.min(TILE_HEIGHT, rows.height);
    const width = Math.max(1, Math.round((rows.width * height) / rows.height));
    tiles.push(scaleDown(rows, width, height));
  }
  const height = Math.max(...tiles.map((tile) => tile.height));
  const width = tiles.reduce((sum, tile) => sum + tile.width, 0) + GAP * (tiles.length - 1);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = GROUND;
    data[i + 1] = GROUND;
    data[i + 2] = GROUND;
    data[i + 3] = 255;
  }
  const starts: number[] = [];
  let x = 0;
  for (const tile of tiles) {
    starts.push(x);
    const top = Math.floor((height - tile.height) / 2);
    for (let y = 0; y < tile.height; y += 1) {
      data.set(tile.data.subarray(y * tile.width * 4, (y + 1) * tile.width * 4), ((top + y) * width + x) * 4);
    }
    x += tile.width + GAP;
  }
  return { sheet: { width, height, data }, starts };
}

/** The label line: each label from the column its tile starts at, cut before the next one. */
export function labelLine(labels: readonly string[], starts: readonly number[], sheetWidth: number, columns: number): string {
  const at = starts.map((start) => Math.floor((start / sheetWidth) * columns));
  let line = '';
  labels.forEach((label, index) => {
    const from = Math.max(at[index]!, line.length === 0 ? 0 : line.length + 1);
    const room = (index + 1 < at.length ? at[index + 1]! : columns) - from - 1;
    if (room <= 0) return;
    // Too narrow a tile for "1 · seed 7": "1 · 7", then "1", before anything is cut mid-word.
    const fits = [label, label.replace(' · seed ', ' · '), label.split(' · ')[0] ?? label].find((form) => form.length <= room);
    line = `${line.padEnd(from)}${fits ?? label.slice(0, room)}`;
  });
  return line;
}

/** Draw `tiles` as one sheet with their labels under it; a file that cannot be decoded: a warning, no sheet. */
export async function showContactSheet(io: IO, tiles: readonly SheetTile[], options: PreviewOptions): Promise<PreviewResult> {
  let starts: number[] = [];
  let sheetWidth = 1;
  const result = await showDecoded(io, options, options.label ?? 'the images', async () => {
    const composed = await composeSheet(tiles.map((tile) => tile.path));
    starts = composed.starts;
    sheetWidth = composed.sheet.width;
    return rowsOf(composed.sheet);
  });
  if (result.shown) io.stdout.write(`${labelLine(tiles.map((tile) => tile.label), starts, sheetWidth, result.cells.columns)}\n`);
  return result;
}
