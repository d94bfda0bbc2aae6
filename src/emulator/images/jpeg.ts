/**
 * JPEG output through jpeg-js, a pure-JavaScript baseline encoder: no native build, so it installs
 * everywhere svc does. It runs on the event loop: some 50–150 ms per megapixel once warmed up.
 */
// jpeg-js is CommonJS; under NodeNext the default import is its module.exports object.
import jpeg from 'jpeg-js';

/** Quality 85: the usual web setting, with no visible blocking on smooth gradients. */
export const JPEG_QUALITY = 85;

/** Encodes RGBA pixels (alpha ignored) as a baseline JPEG file. */
export function encodeJpeg(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  return jpeg.encode({ data: rgba, width, height }, JPEG_QUALITY).data;
}
