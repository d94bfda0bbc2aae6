/**
 * Writing PNG files (PNG specification, W3C, 3rd edition): 8-bit RGB or RGBA, no interlace, every
 * row with filter type 1 (Sub), the whole image in one IDAT chunk: the preview's PNG for iTerm2,
 * and the chunks of the metadata svc writes. Sub suits a picture: along a row of sky or ridge the
 * difference to the left neighbour is mostly zero, which deflate packs well, and it costs one pass
 * (pngjs tries all five filters on every row, 3–4 times slower). Compression is the caller's (the
 * preview deflates at level 1). The emulator, a package of its own, has its own short RGB writer.
 */
import { crc32 } from 'node:zlib';

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** One chunk: length, type, data, and the CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The scanlines of RGBA pixels, each prefixed with filter type 1 and Sub-filtered: each byte
 * minus the same channel of the pixel to its left, modulo 256. Alpha is kept when `alpha`, else
 * dropped (RGB).
 */
export function subFilteredRows(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, alpha: boolean): Buffer {
  const channels = alpha ? 4 : 3;
  const stride = 1 + width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    let o = y * stride;
    out[o++] = 1;
    let i = y * width * 4;
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
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
      if (alpha) {
        const na = rgba[i + 3]!;
        out[o++] = (na - a) & 0xff;
        a = na;
      }
    }
  }
  return out;
}

/** The PNG file of a `width` × `height` picture whose Sub-filtered rows deflate to `idat`. */
export function pngFile(width: number, height: number, alpha: boolean, idat: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = alpha ? 6 : 2; // colour type: truecolour with alpha, or truecolour
  // Bytes 10-12 stay 0: deflate compression, adaptive filtering, no interlace.
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))]);
}
