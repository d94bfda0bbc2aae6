/**
 * iTerm2's inline images (https://iterm2.com/documentation-images.html): an OSC 1337 escape
 * carrying a whole image file in base64. The file is a PNG svc encodes from the decoded pixels,
 * never the service's own bytes, and no `name=` is sent, so nothing of the file (its name, its
 * metadata chunks) reaches the terminal; the other keys are numbers svc computed.
 */
import { deflateSync } from 'node:zlib';
import { pngFile, subFilteredRows } from '../../images/png-write.js';
import type { CellSize } from '../fit.js';
import { isOpaque, type Pixels } from '../../images/pixels.js';

/**
 * A PNG of `pixels`: RGB when they are opaque, else RGBA so transparency survives; the fastest
 * deflate, since the file only crosses to the local terminal.
 */
function encodePng(pixels: Pixels): Buffer {
  const alpha = !isOpaque(pixels);
  return pngFile(pixels.width, pixels.height, alpha, deflateSync(subFilteredRows(pixels.data, pixels.width, pixels.height, alpha), { level: 1 }));
}

/** The escape that shows `pixels` in `cells` at the cursor. */
export function itermImage(pixels: Pixels, cells: CellSize): string {
  const file = encodePng(pixels);
  const args = `inline=1;size=${file.length};width=${cells.columns};height=${cells.rows};preserveAspectRatio=1`;
  return `\x1b]1337;File=${args}:${file.toString('base64')}\x07`;
}
