/**
 * Unicode half blocks for every other terminal: each cell is `▀` (upper half block) with the
 * upper pixel as its foreground colour and the lower one as its background, so a cell shows two
 * stacked pixels, and cells about twice as tall as wide make them roughly square. 24-bit colour
 * escapes where the terminal says it takes them (COLORTERM), else the nearest of the 256-colour
 * palette. Only SGR escapes with numbers svc computed are written.
 */
import { flatten, type Pixels } from '../../images/pixels.js';

export type ColourDepth = 'truecolor' | '256';

/** The six levels of each channel of xterm's 6×6×6 colour cube (colours 16–231). */
const CUBE = [0, 95, 135, 175, 215, 255];

function nearestLevel(value: number): number {
  // Midpoints between the cube's levels: 48, 115, 155, 195, 235.
  return value < 48 ? 0 : value < 115 ? 1 : Math.min(5, Math.floor((value - 35) / 40));
}

/**
 * How far a colour may be from grey (its largest channel minus its smallest) and still be drawn
 * with the grey ramp: a colour with any visible hue keeps a hue. Distance alone would pick the
 * ramp for most dark and muted colours, because the cube's dark levels are far apart (0, 95):
 * a dusky sky, a brown fox, a green slope in shadow would all turn grey.
 */
const NEUTRAL_CHROMA = 16;

/** The 256-colour palette index for a colour: the nearest cube entry, the grey ramp (232–255) only for a near-grey. */
export function xterm256(r: number, g: number, b: number): number {
  const ri = nearestLevel(r);
  const gi = nearestLevel(g);
  const bi = nearestLevel(b);
  const cube = 16 + 36 * ri + 6 * gi + bi;
  if (Math.max(r, g, b) - Math.min(r, g, b) >= NEUTRAL_CHROMA) return cube;
  const cubeDistance = (CUBE[ri]! - r) ** 2 + (CUBE[gi]! - g) ** 2 + (CUBE[bi]! - b) ** 2;
  // The grey ramp runs 8, 18, ..., 238.
  const mean = (r + g + b) / 3;
  const step = Math.max(0, Math.min(23, Math.round((mean - 8) / 10)));
  const grey = 8 + 10 * step;
  const greyDistance = (grey - r) ** 2 + (grey - g) ** 2 + (grey - b) ** 2;
  return greyDistance < cubeDistance ? 232 + step : cube;
}

function colour(layer: 38 | 48, data: Uint8Array, i: number, depth: ColourDepth): string {
  const r = data[i]!;
  const g = data[i + 1]!;
  const b = data[i + 2]!;
  return depth === 'truecolor' ? `${layer};2;${r};${g};${b}` : `${layer};5;${xterm256(r, g, b)}`;
}

/**
 * Lines of half blocks for `pixels` (one column per pixel, one line per two rows), each line
 * ending in a colour reset and a newline. An odd last row keeps the terminal's own background
 * under its upper halves.
 */
export function halfBlocks(pixels: Pixels, depth: ColourDepth): string {
  const { width, height, data } = flatten(pixels);
  let out = '';
  for (let y = 0; y < height; y += 2) {
    let line = '';
    let previous = '';
    for (let x = 0; x < width; x += 1) {
      const top = (y * width + x) * 4;
      const fg = colour(38, data, top, depth);
      const bg = y + 1 < height ? colour(48, data, top + width * 4, depth) : '49';
      const sgr = `${fg};${bg}`;
      // A run of cells with the same two colours needs its escape only once.
      line += sgr === previous ? '▀' : `\x1b[${sgr}m▀`;
      previous = sgr;
    }
    out += `${line}\x1b[0m\n`;
  }
  return out;
}
