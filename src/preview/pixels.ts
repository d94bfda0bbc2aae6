/** Decoded pixels: 8-bit RGBA, row after row, no padding. Every preview encoder starts from these. */
export interface Pixels {
  width: number;
  height: number;
  /** width × height × 4 bytes: red, green, blue, alpha. */
  data: Uint8Array;
}

/**
 * The pixels laid over a solid colour (alpha dropped to 255), for the outputs that cannot show
 * transparency (half blocks) or show it badly (sixel's transparent pixels take whatever was on the
 * screen). A copy: the input stays as it was.
 */
export function flatten(pixels: Pixels, background: readonly [number, number, number] = [0, 0, 0]): Pixels {
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
