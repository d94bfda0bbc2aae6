/**
 * The emulator's PNG pictures (PNG specification, W3C, 3rd edition): 8-bit RGB (its scenes are
 * opaque), no interlace, every row with filter type 1 (Sub), the whole image in one IDAT chunk,
 * deflated on libuv's thread pool, so the event loop is only busy for the filtering pass. Sub
 * suits a drawn scene: along a row of sky or ridge the difference to the left neighbour is mostly
 * zero, and it costs one pass (pngjs tries all five filters on every row).
 *
 * Deflated with Z_RLE: the Sub-filtered rows of a drawn scene are long runs of the same small
 * difference, which run-length matching alone packs nearly as well as zlib's default search, in
 * a fraction of its time.
 *
 * svc writes PNG files too (its src/images/png-write.ts, with alpha, for the preview): this
 * package imports nothing of svc, and the part it needs is this short.
 */
import { promisify } from 'node:util';
import { constants, crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** One chunk: length, type, data, and the CRC of type and data. */
function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The RGB scanlines of RGBA pixels (alpha dropped), each prefixed with filter type 1 and
 * Sub-filtered: each byte minus the same channel of the pixel to its left, modulo 256.
 */
function subFilteredRows(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  const stride = 1 + width * 3;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    let o = y * stride;
    out[o++] = 1;
    let i = y * width * 4;
    let r = 0;
    let g = 0;
    let b = 0;
    for (let x = 0; x < width; x += 1, i += 4) {
      const nr = rgba[i]!;
      const ng = rgba[i + 1]!;
      const nb = rgba[i + 2]!;
      out[o++] = (nr - r) & 0xff;
      out[o++] = (ng - g) & 0xff;
      out[o++] = (nb - b) & 0xff;
      r = nr;
      g = ng;
      b = nb;
    }
  }
  return out;
}

/** Encodes RGBA pixels (alpha ignored: the scenes are opaque) as a PNG file. */
export async function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Promise<Buffer> {
  const idat = await deflateAsync(subFilteredRows(rgba, width, height), { strategy: constants.Z_RLE });
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  // Bytes 10-12 stay 0: deflate compression, adaptive filtering, no interlace.
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))]);
}
