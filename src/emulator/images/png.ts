/**
 * The emulator's PNG pictures: 8-bit RGB (its scenes are opaque), Sub-filtered rows (png-write.ts),
 * deflated on libuv's thread pool, so the event loop is only busy for the filtering pass.
 */
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { pngFile, subFilteredRows } from '../../images/png-write.js';

export { PNG_SIGNATURE } from '../../images/png-write.js';

const deflateAsync = promisify(deflate);

/** Encodes RGBA pixels (alpha ignored: the scenes are opaque) as a PNG file. */
export async function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Promise<Buffer> {
  return pngFile(width, height, false, await deflateAsync(subFilteredRows(rgba, width, height, false)));
}
