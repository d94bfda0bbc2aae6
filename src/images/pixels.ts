/** Decoded pixels: 8-bit RGBA, row after row, no padding. Every preview encoder starts from these. */
export interface Pixels {
  width: number;
  height: number;
  /** width × height × 4 bytes: red, green, blue, alpha. */
  data: Uint8Array;
}

/**
 * Decoded rows as a decoder left them, before they are made into {@link Pixels}: RGB or RGBA, each
 * row starting `stride` bytes after the one above (a PNG's rows keep their filter byte between
 * them). The scaler reads these directly, so a picture that is only going to be scaled down is
 * never expanded to RGBA and copied at full size first.
 */
export interface PixelRows {
  width: number;
  height: number;
  /** 3: red, green, blue (opaque); 4: with alpha. */
  channels: 3 | 4;
  data: Uint8Array;
  /** Where the first row starts in `data`. */
  offset: number;
  /** Bytes from the start of one row to the start of the next. */
  stride: number;
}

/**
 * Whether this machine stores the low byte of a 32-bit word first (x86, arm64: every common one).
 * The word-at-a-time paths below rely on it; a big-endian machine takes the byte-at-a-time ones.
 */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** The rows of plain RGBA pixels (no copy). */
export function rowsOf(pixels: Pixels): PixelRows {
  return { width: pixels.width, height: pixels.height, channels: 4, data: pixels.data, offset: 0, stride: pixels.width * 4 };
}

/** The rows as plain RGBA pixels: the same bytes when they already are, else a packed copy. */
export function toPixels(rows: PixelRows): Pixels {
  const { width, height, channels, data, offset, stride } = rows;
  const packed = width * 4;
  if (channels === 4 && offset === 0 && stride === packed) return { width, height, data };
  const out = new Uint8Array(packed * height);
  if (channels === 4) {
    for (let y = 0; y < height; y += 1) out.set(data.subarray(offset + y * stride, offset + y * stride + packed), y * packed);
  } else if (LITTLE_ENDIAN) {
    // One 32-bit store a pixel, alpha 255 in the top byte: R, G, B, A in memory.
    const words = new Uint32Array(out.buffer);
    for (let y = 0, p = 0; y < height; y += 1) {
      for (let i = offset + y * stride, end = i + width * 3; i < end; i += 3, p += 1) {
        words[p] = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | 0xff000000) >>> 0;
      }
    }
  } else {
    for (let y = 0, p = 0; y < height; y += 1) {
      for (let i = offset + y * stride, end = i + width * 3; i < end; i += 3, p += 4) {
        out[p] = data[i]!;
        out[p + 1] = data[i + 1]!;
        out[p + 2] = data[i + 2]!;
        out[p + 3] = 255;
      }
    }
  }
  return { width, height, data: out };
}

/** Every alpha is 255 (RGBA), read a 32-bit word at a time. */
export function isOpaque(pixels: Pixels): boolean {
  const { data } = pixels;
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0 && data.length % 4 === 0) {
    // Alpha is each word's top byte: below 0xff000000 means below 255.
    const words = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
    for (let i = 0; i < words.length; i += 1) if (words[i]! < 0xff000000) return false;
    return true;
  }
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/**
 * The pixels laid over a solid colour (alpha dropped to 255), for the outputs that cannot show
 * transparency (half blocks) or show it badly (sixel's transparent pixels take whatever was on the
 * screen). A copy, or the same pixels when they are opaque already: the input is never changed.
 */
export function flatten(pixels: Pixels, background: readonly [number, number, number] = [0, 0, 0]): Pixels {
  if (isOpaque(pixels)) return pixels;
  const { data } = pixels;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3]!;
    if (alpha === 255) {
      out[i] = data[i]!;
      out[i + 1] = data[i + 1]!;
      out[i + 2] = data[i + 2]!;
    } else {
      for (let c = 0; c < 3; c += 1) out[i + c] = Math.round((data[i + c]! * alpha + background[c]! * (255 - alpha)) / 255);
    }
    out[i + 3] = 255;
  }
  return { width: pixels.width, height: pixels.height, data: out };
}
