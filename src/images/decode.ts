/**
 * PNG, JPEG and WebP files to pixels, for the preview and for an image attached to a message that
 * has to be scaled down (attachments/image-input.ts). Each decoder is imported on first use, so
 * `svc image` without a preview (a pipe, --json, --preview none) never loads one:
 *   - PNG: 8-bit RGB and RGBA without interlacing (what image services send) by png-rgb.ts, which
 *     copies the picture less; everything else by pngjs, the long-standing pure-JavaScript codec
 *     (zlib from Node itself), which handles every colour type, bit depth, palette, transparency
 *     chunk and interlacing the format allows.
 *   - JPEG: @jsquash/jpeg, mozjpeg in WebAssembly: a pure-JavaScript decoder (jpeg-js) takes
 *     several times as long, most of the preview's budget (bench/README.md, the preview).
 *   - WebP: @jsquash/webp's decoder, libwebp in WebAssembly, from the package svc already carries.
 */
import type { ImageFormat } from '../api/images/formats.js';
import { detectFormat, readDimensions } from '../images/file-format.js';
import { rowsOf, type PixelRows } from './pixels.js';

/**
 * The largest picture decoded for a preview, in pixels. A 1-megapixel image needs 4 MiB decoded;
 * this cap (about 8K × 4K) keeps an unexpectedly huge file from costing hundreds of MiB for a
 * thumbnail. The file itself is saved whatever its size.
 */
export const MAX_PREVIEW_PIXELS = 36_000_000;

/** Why a file was not previewed: one line for a warning, never the file's own text. */
export class PreviewDecodeError extends Error {}

/**
 * The file's pixels as the decoder left them (a PNG's rows stay in its inflated buffer), for a
 * caller that scales them down before anything else. A picture of more than `maxPixels` is
 * refused before it is decoded.
 */
export async function decodeRows(bytes: Uint8Array, maxPixels = MAX_PREVIEW_PIXELS): Promise<PixelRows> {
  const format: ImageFormat | undefined = detectFormat(bytes.subarray(0, 64));
  if (!format) throw new PreviewDecodeError('not a PNG, JPEG or WebP file');
  // The whole file: a JPEG's frame header can come after a large EXIF block.
  const size = readDimensions(bytes);
  if (size && size.width * size.height > maxPixels) {
    throw new PreviewDecodeError(`${size.width}×${size.height} is too large to preview`);
  }
  try {
    switch (format) {
      case 'png': {
        const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const fast = (await import('./png-rgb.js')).decodeRgbPngRows(file);
        if (fast) return fast;
        const { PNG } = (await import('pngjs')).default;
        const png = PNG.sync.read(file);
        return rowsOf({ width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) });
      }
      case 'jpeg':
      case 'webp':
        return rowsOf(await (await import('./decode-wasm.js')).decodeWithWasm(format, bytes));
    }
  } catch (error) {
    if (error instanceof PreviewDecodeError) throw error;
    // The codecs' messages can quote the file ("unknown marker 0x..."); say only which format failed.
    throw new PreviewDecodeError(`the ${format} file could not be decoded`, { cause: error });
  }
}
