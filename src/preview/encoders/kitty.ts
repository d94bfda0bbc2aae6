/**
 * The kitty graphics protocol (https://sw.kovidgoyal.net/kitty/graphics-protocol/): the pixels
 * themselves, RGBA, zlib-compressed and base64-encoded, sent in APC escapes of at most 4096
 * payload bytes each. Every byte of the output is either a fixed key, a number svc computed, or
 * base64 of the compressed pixels.
 */
import { deflateSync } from 'node:zlib';
import type { CellSize } from '../fit.js';
import type { Pixels } from '../../images/pixels.js';

/** The protocol's limit for the payload of one escape. */
const CHUNK = 4096;

/**
 * The escapes that draw `pixels` at the cursor in `cells` (columns and rows both: kitty since 0.33
 * keeps the picture's aspect ratio when given only one, but the kitty of Debian 12 and Ubuntu
 * 24.04 then scales only that side, which stretched the picture by a tenth; with both, a cell
 * shape other than the assumed 1:2 changes it by a few percent at most), and leave the cursor
 * after the picture on its last row. `a=T` transmits and displays at once; `q=2` silences the
 * terminal's replies, which would otherwise arrive on stdin and be typed into the user's shell.
 */
export function kittyImage(pixels: Pixels, cells: CellSize): string {
  // Level 1: the fastest setting; the stream stays on the local terminal, so size matters little.
  const payload = deflateSync(pixels.data, { level: 1 }).toString('base64');
  const control = `a=T,f=32,o=z,s=${pixels.width},v=${pixels.height},c=${cells.columns},r=${cells.rows},q=2`;
  const parts: string[] = [];
  for (let offset = 0; offset < payload.length || offset === 0; offset += CHUNK) {
    const piece = payload.slice(offset, offset + CHUNK);
    const more = offset + CHUNK < payload.length ? 1 : 0;
    // The control keys go in the first escape only; the rest carry just m (more to come or not).
    parts.push(`\x1b_G${offset === 0 ? `${control},` : ''}m=${more};${piece}\x1b\\`);
  }
  return parts.join('');
}
