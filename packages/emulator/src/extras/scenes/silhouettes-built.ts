/**
 * Silhouettes of built things: lighthouse, house, castle, tower, windmill, bridge, car, boat. Each
 * is a few primitives (shapes.ts) in local units, 1 tall, drawn back to front, with the colours it
 * has in daylight; draw-subjects.ts darkens them towards a silhouette as the light goes.
 */
import { capsule, circle, poly, rect, turned, type Paint, type Primitive } from './shapes.js';
import type { Rgb } from './colour.js';

/** A subject's drawing: its width (in heights) for fitting, its parts and its daylight colours. */
export interface Silhouette {
  width: number;
  parts: readonly Primitive[];
  colors: Partial<Record<Paint, Rgb>>;
}

/** Variation within a kind (a colour, a blade angle), from 0 to 1; `span` is a bridge's width in heights. */
export interface ShapeOptions {
  variant: number;
  span: number;
  /** Width of a flat summit for something to stand on (mountain only), in heights. */
  plateau: number;
}

export function lighthouse(): Silhouette {
  // The tower tapers from ±0.085 at its foot to ±0.055 under the gallery.
  const half = (y: number): number => 0.085 - (0.03 * (y - 0.05)) / 0.67;
  const band = (y0: number, y1: number): Primitive => poly('accent', [-half(y0), y0, half(y0), y0, half(y1), y1, -half(y1), y1]);
  return {
    width: 0.42,
    parts: [
      poly('beam', [0, 0.81, 2.4, 0.99, 2.4, 0.6], 0.2),
      poly('beam', [0, 0.81, -1.7, 0.96, -1.7, 0.72], 0.14),
      poly('trim', [-0.21, 0, 0.21, 0, 0.15, 0.07, -0.13, 0.09]),
      poly('body', [-half(0.05), 0.05, half(0.05), 0.05, half(0.72), 0.72, -half(0.72), 0.72]),
      band(0.2, 0.31),
      band(0.44, 0.55),
      rect('dark', -0.08, 0.715, 0.08, 0.75),
      rect('light', -0.045, 0.745, 0.045, 0.865),
      poly('accent', [-0.062, 0.86, 0.062, 0.86, 0, 0.955]),
      circle('dark', 0, 0.96, 0.013),
      rect('dark', -0.022, 0.08, 0.022, 0.16),
    ],
    colors: { body: [238, 236, 230], accent: [184, 42, 40], trim: [92, 86, 82], dark: [40, 40, 46], light: [160, 190, 210] },
  };
}

export function house(): Silhouette {
  return {
    width: 1.1,
    parts: [
      rect('accent', 0.22, 0.6, 0.32, 0.98),
      rect('body', -0.45, 0, 0.45, 0.56),
      poly('accent', [-0.55, 0.53, 0.55, 0.53, 0, 0.95]),
      rect('dark', -0.08, 0, 0.08, 0.3),
      rect('light', -0.36, 0.22, -0.2, 0.38),
      rect('light', 0.2, 0.22, 0.36, 0.38),
      circle('light', 0, 0.68, 0.05),
    ],
    colors: { body: [224, 206, 178], accent: [152, 62, 48], dark: [72, 50, 40] },
  };
}

export function castle(): Silhouette {
  const merlons = (from: number, to: number, y: number): Primitive[] => {
    const parts: Primitive[] = [];
    for (let x = from; x <= to + 1e-9; x += 0.1) parts.push(rect('body', x - 0.033, y - 0.01, x + 0.033, y + 0.06));
    return parts;
  };
  return {
    width: 1.62,
    parts: [
      rect('body', -0.46, 0, 0.46, 0.45),
      ...merlons(-0.4, 0.4, 0.45),
      rect('body', -0.2, 0, 0.2, 0.68),
      ...merlons(-0.15, 0.15, 0.68),
      rect('body', -0.76, 0, -0.46, 0.72),
      rect('body', 0.46, 0, 0.76, 0.72),
      poly('accent', [-0.81, 0.715, -0.41, 0.715, -0.61, 1]),
      poly('accent', [0.41, 0.715, 0.81, 0.715, 0.61, 1]),
      capsule('dark', 0, 0.74, 0, 0.93, 0.007),
      poly('accent', [0, 0.93, 0.13, 0.89, 0, 0.85]),
      rect('dark', -0.08, 0, 0.08, 0.16),
      circle('dark', 0, 0.16, 0.08),
      rect('light', -0.64, 0.45, -0.58, 0.56),
      rect('light', 0.58, 0.45, 0.64, 0.56),
      rect('light', -0.035, 0.46, 0.035, 0.57),
    ],
    colors: { body: [162, 154, 144], accent: [72, 62, 112], dark: [40, 36, 40] },
  };
}

export function tower(): Silhouette {
  return {
    width: 0.32,
    parts: [
      rect('body', -0.11, 0, 0.11, 0.79),
      rect('body', -0.145, 0.78, 0.145, 0.85),
      poly('accent', [-0.16, 0.845, 0.16, 0.845, 0, 1]),
      rect('dark', -0.04, 0, 0.04, 0.1),
      circle('dark', 0, 0.1, 0.04),
      rect('light', -0.025, 0.32, 0.025, 0.41),
      rect('light', -0.025, 0.57, 0.025, 0.66),
    ],
    colors: { body: [150, 140, 128], accent: [112, 52, 46], dark: [40, 36, 36] },
  };
}

export function windmill({ variant }: ShapeOptions): Silhouette {
  const hub = [0, 0.63] as const;
  const angle = 0.2 + variant * (Math.PI / 2);
  const blades = [0, 1, 2, 3].map((k) => poly('trim', turned([0.04, 0.6, 0.38, 0.6, 0.38, 0.665, 0.04, 0.665], angle + (k * Math.PI) / 2, hub[0], hub[1] + 0.0)));
  return {
    width: 0.82,
    parts: [
      poly('body', [-0.14, 0, 0.14, 0, 0.08, 0.6, -0.08, 0.6]),
      poly('accent', [-0.105, 0.59, 0.105, 0.59, 0, 0.72]),
      ...blades,
      circle('dark', hub[0], hub[1], 0.03),
      rect('dark', -0.04, 0, 0.04, 0.13),
      rect('light', -0.025, 0.32, 0.025, 0.4),
    ],
    colors: { body: [222, 216, 204], accent: [150, 64, 50], trim: [120, 92, 62], dark: [48, 40, 36] },
  };
}

/**
 * An arched stone bridge `span` heights wide: deck and parapet, piers, and over each arch a row of
 * thin quadrilaterals whose lower edges follow the arch (a union of convex pieces; they overlap a
 * little so no seam shows between them).
 */
export function bridge({ span }: ShapeOptions): Silhouette {
  const width = Math.max(2, span);
  const arches = Math.max(2, Math.round(width / 1.3));
  const pier = 0.16;
  const opening = (width - pier * (arches + 1)) / arches;
  const radius = opening / 2;
  const springing = Math.max(0.05, 0.78 - radius);
  const parts: Primitive[] = [rect('body', -width / 2, 0.78, width / 2, 1), rect('trim', -width / 2, 1, width / 2, 1.06)];
  const strips = 12;
  for (let a = 0; a <= arches; a += 1) {
    const x = -width / 2 + a * (opening + pier);
    parts.push(rect('body', x, 0, x + pier, 0.8));
    if (a === arches) break;
    const centre = x + pier + radius;
    const archY = (u: number): number => springing + Math.sqrt(Math.max(0, radius * radius - (u - centre) ** 2));
    for (let s = 0; s < strips; s += 1) {
      const xl = x + pier + (opening * s) / strips - 0.006;
      const xr = x + pier + (opening * (s + 1)) / strips + 0.006;
      parts.push(poly('body', [xl, archY(xl) - 0.004, xr, archY(xr) - 0.004, xr, 0.8, xl, 0.8]));
    }
  }
  return { width, parts, colors: { body: [164, 152, 136], trim: [130, 120, 108] } };
}

export function car(): Silhouette {
  return {
    width: 2.2,
    parts: [
      poly('body', [-1.05, 0.18, 1.05, 0.18, 1.08, 0.42, 0.95, 0.56, -1.0, 0.58, -1.08, 0.45]),
      poly('body', [-0.62, 0.55, 0.56, 0.55, 0.34, 0.93, -0.42, 0.93]),
      poly('glass', [-0.52, 0.6, -0.06, 0.6, -0.06, 0.86, -0.36, 0.86]),
      poly('glass', [0.04, 0.6, 0.46, 0.6, 0.29, 0.86, 0.04, 0.86]),
      circle('dark', -0.62, 0.2, 0.2),
      circle('dark', 0.62, 0.2, 0.2),
      circle('trim', -0.62, 0.2, 0.085),
      circle('trim', 0.62, 0.2, 0.085),
      poly('light', [1.0, 0.36, 1.075, 0.37, 1.07, 0.46, 1.0, 0.46]),
      rect('accent', -1.07, 0.36, -1.01, 0.46),
    ],
    colors: { body: [178, 40, 42], glass: [134, 172, 198], dark: [28, 28, 30], trim: [192, 192, 198], accent: [230, 60, 40], light: [240, 236, 210] },
  };
}

export function boat(): Silhouette {
  return {
    width: 1.0,
    parts: [
      poly('accent', [-0.5, 0.15, 0.52, 0.15, 0.36, 0, -0.36, 0]),
      rect('trim', -0.2, 0.14, 0.1, 0.23),
      capsule('dark', 0, 0.14, 0, 1, 0.012),
      poly('body', [0.035, 0.22, 0.035, 0.97, 0.44, 0.22]),
      poly('body', [-0.035, 0.27, -0.035, 0.9, -0.33, 0.27]),
    ],
    colors: { accent: [48, 66, 118], trim: [204, 192, 170], dark: [44, 38, 34], body: [246, 242, 230] },
  };
}
