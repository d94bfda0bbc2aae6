/**
 * iTerm2's inline images (https://iterm2.com/documentation-images.html): an OSC 1337 escape
 * carrying a whole image file in base64. The file is a PNG svc encodes from the decoded pixels,
 * never the service's own bytes, and no `name=` is sent, so nothing of the file (its name, its
 * metadata chunks) reaches the terminal; the other keys are numbers svc computed.
 */
import type { CellSize } from '../fit.js';
import type { Pixels } from '../pixels.js';

/** A PNG of `pixels` (RGBA, so transparency survives). pngjs is loaded with the preview. */
async function encodePng(pixels: Pixels): Promise<Buffer> {
  const { PNG } = (await import('pngjs')).default;
  const png = new PNG({ width: pixels.width, height: pixels.height });
  png.data = Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
  // Filter 1 (Sub) with the fastest deflate: pngjs otherwise tries all five filters on every row.
  return PNG.sync.write(png, { filterType: 1, deflateLevel: 1 });
}

/** The escape that shows `pixels` in `cells` at the cursor. */
export async function itermImage(pixels: Pixels, cells: CellSize): Promise<string> {
  const file = await encodePng(pixels);
  const args = `inline=1;size=${file.length};width=${cells.columns};height=${cells.rows};preserveAspectRatio=1`;
  return `\x1b]1337;File=${args}:${file.toString('base64')}\x07`;
}
