/**
 * The scenes' colours: one as red, green, blue, and mixing two. Its own module so that planning,
 * drawing and the shapes share it without importing one another for it (no import loops:
 * svc's test/architecture).
 */

/** A colour as red, green, blue, 0 to 255. */
export type Rgb = readonly [number, number, number];

/** `a` to `b` by `t` (0 gives `a`), per channel. */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}
