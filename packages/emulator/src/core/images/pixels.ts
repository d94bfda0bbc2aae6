/**
 * Drawn pixels, as the encoders take them: its own module so the encoders and the scenes that
 * draw (extras/scenes/) share the type without importing each other.
 */

/** Drawn pixels: RGBA, 4 bytes per pixel, rows top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  /** Clamped, so rounding a colour a little past 255 cannot wrap round to black. */
  data: Uint8ClampedArray;
}
