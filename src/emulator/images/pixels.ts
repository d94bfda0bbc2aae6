/**
 * The emulator's picture vocabulary shared by planning, drawing, shapes and encoding: a colour,
 * mixing two, and a buffer of drawn pixels. Its own module so that none of those imports another
 * for a type alone (the house has no import loops: test/architecture).
 */

/** A colour as red, green, blue, 0 to 255. */
export type Rgb = readonly [number, number, number];

/** `a` to `b` by `t` (0 gives `a`), per channel. */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Drawn pixels: RGBA, 4 bytes per pixel, rows top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  /** Clamped, so rounding a colour a little past 255 cannot wrap round to black. */
  data: Uint8ClampedArray;
}
