/**
 * Turns drawn pixels into a file in the requested format. Each encoder is its own module, imported
 * on first use: the chat endpoint, and svc's startup, never load zlib or the JPEG and WebP wasm.
 */
import type { Pixels } from './pixels.js';
import type { OutputFormat } from './sizes.js';

/**
 * Encodes `pixels` as a PNG, JPEG or WebP file. Same pixels, format and quality, same bytes.
 * `quality` (0 to 100, OpenAI's `output_compression`) sets a JPEG's or WebP's; a PNG is lossless.
 */
export async function encodeImage(pixels: Pixels, format: OutputFormat, quality?: number): Promise<Buffer> {
  const { data, width, height } = pixels;
  switch (format) {
    case 'png':
      return (await import('./png.js')).encodePng(data, width, height);
    case 'jpeg':
      return (await import('./jpeg.js')).encodeJpeg(data, width, height, quality);
    case 'webp':
      return (await import('./webp.js')).encodeWebp(data, width, height, quality);
  }
}
