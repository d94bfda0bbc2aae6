/**
 * Silhouettes of living things and of a lone mountain: tree, flower, cat, dog, fox, owl, bird,
 * fish, person, mountain. Same conventions as silhouettes-built.ts: 1 tall, base at y = 0, parts
 * back to front, daylight colours.
 */
import type { Silhouette, ShapeOptions } from './silhouettes-built.js';
import { capsule, circle, ellipse, poly, turned, type Primitive } from './shapes.js';
import type { Rgb } from './colour.js';

export function tree(): Silhouette {
  return {
    width: 0.8,
    parts: [
      poly('trim', [-0.055, 0, 0.055, 0, 0.035, 0.52, -0.035, 0.52]),
      capsule('trim', 0, 0.4, -0.16, 0.6, 0.02),
      capsule('trim', 0, 0.45, 0.15, 0.63, 0.02),
      circle('body', -0.2, 0.6, 0.18),
      circle('body', 0.2, 0.62, 0.19),
      circle('body', 0, 0.72, 0.25),
      circle('body', -0.09, 0.86, 0.13),
      circle('body', 0.1, 0.84, 0.14),
    ],
    colors: { trim: [92, 62, 40], body: [58, 118, 52] },
  };
}

const PETALS: readonly Rgb[] = [[232, 80, 122], [242, 200, 60], [206, 60, 58], [180, 112, 222]];

export function flower({ variant }: ShapeOptions): Silhouette {
  const centre = [0.02, 0.8] as const;
  const petals: Primitive[] = [];
  for (let k = 0; k < 7; k += 1) {
    const angle = (k * 2 * Math.PI) / 7 + variant;
    petals.push(ellipse('accent', centre[0] + Math.cos(angle) * 0.095, centre[1] + Math.sin(angle) * 0.095, 0.09, 0.045, angle));
  }
  return {
    width: 0.46,
    parts: [
      capsule('trim', 0, 0, 0.02, 0.74, 0.016),
      ellipse('trim', 0.1, 0.3, 0.1, 0.035, 0.5),
      ellipse('trim', -0.09, 0.44, 0.09, 0.03, -0.5),
      ...petals,
      circle('eye', centre[0], centre[1], 0.055),
    ],
    colors: { trim: [62, 132, 52], accent: PETALS[Math.floor(variant * PETALS.length) % PETALS.length]!, eye: [250, 204, 64] },
  };
}

const FURS: readonly Rgb[] = [[206, 124, 62], [96, 96, 104], [52, 50, 54]];

/** A cat sitting, facing the viewer, its tail curled round to the side. */
export function cat({ variant }: ShapeOptions): Silhouette {
  return {
    width: 0.9,
    parts: [
      capsule('body', 0.18, 0.05, 0.34, 0.06, 0.035),
      capsule('body', 0.34, 0.06, 0.42, 0.16, 0.035),
      capsule('body', 0.42, 0.16, 0.41, 0.3, 0.035),
      ellipse('body', 0, 0.3, 0.2, 0.3),
      ellipse('body', 0, 0.13, 0.25, 0.14),
      circle('body', 0, 0.68, 0.15),
      poly('body', [-0.15, 0.71, -0.03, 0.79, -0.12, 0.92]),
      poly('body', [0.15, 0.71, 0.03, 0.79, 0.12, 0.92]),
      ellipse('eye', -0.055, 0.69, 0.032, 0.022),
      ellipse('eye', 0.055, 0.69, 0.032, 0.022),
    ],
    colors: { body: FURS[Math.floor(variant * FURS.length) % FURS.length]!, eye: [150, 206, 80] },
  };
}

/** A dog standing in profile, facing right. */
export function dog(): Silhouette {
  return {
    width: 1.3,
    parts: [
      capsule('body', -0.4, 0.56, -0.56, 0.78, 0.03),
      capsule('body', -0.3, 0.45, -0.32, 0.03, 0.05),
      capsule('body', -0.17, 0.45, -0.15, 0.03, 0.05),
      capsule('body', 0.22, 0.45, 0.24, 0.03, 0.05),
      capsule('body', 0.34, 0.45, 0.36, 0.03, 0.05),
      ellipse('body', 0, 0.5, 0.42, 0.17),
      ellipse('body', 0.3, 0.53, 0.16, 0.18),
      capsule('body', 0.36, 0.6, 0.46, 0.82, 0.08),
      ellipse('body', 0.5, 0.86, 0.13, 0.1),
      capsule('body', 0.55, 0.82, 0.7, 0.8, 0.05),
      circle('dark', 0.74, 0.81, 0.025),
      ellipse('trim', 0.43, 0.8, 0.05, 0.1, -0.3),
      circle('dark', 0.55, 0.89, 0.016),
    ],
    colors: { body: [150, 106, 64], trim: [108, 72, 42], dark: [30, 24, 22] },
  };
}

/** A fox standing in profile, facing right: pointed ears, long snout, bushy white-tipped tail. */
export function fox(): Silhouette {
  return {
    width: 1.45,
    parts: [
      ellipse('body', -0.5, 0.36, 0.3, 0.1, 0.35),
      ellipse('trim', -0.74, 0.27, 0.08, 0.06, 0.35),
      capsule('dark', -0.24, 0.4, -0.26, 0.02, 0.03),
      capsule('dark', -0.13, 0.4, -0.12, 0.02, 0.03),
      capsule('dark', 0.22, 0.4, 0.24, 0.02, 0.03),
      capsule('dark', 0.31, 0.4, 0.33, 0.02, 0.03),
      ellipse('body', 0, 0.45, 0.38, 0.13),
      capsule('body', 0.3, 0.5, 0.4, 0.68, 0.07),
      ellipse('trim', 0.36, 0.5, 0.07, 0.1),
      ellipse('body', 0.43, 0.7, 0.1, 0.08),
      poly('body', [0.45, 0.75, 0.68, 0.64, 0.45, 0.62]),
      poly('body', [0.35, 0.74, 0.42, 0.76, 0.37, 0.93]),
      poly('body', [0.43, 0.76, 0.5, 0.73, 0.47, 0.9]),
      circle('dark', 0.67, 0.645, 0.018),
      circle('dark', 0.47, 0.72, 0.014),
    ],
    colors: { body: [214, 112, 40], trim: [242, 238, 228], dark: [40, 30, 28] },
  };
}

/** An owl on a post, facing the viewer: ear tufts, a pale face disc and big eyes. */
export function owl(): Silhouette {
  return {
    width: 0.56,
    parts: [
      poly('trim', [-0.13, 0, 0.13, 0, 0.12, 0.32, -0.12, 0.32]),
      ellipse('body', 0, 0.56, 0.2, 0.27),
      ellipse('trim', -0.16, 0.5, 0.07, 0.2, 0.15),
      ellipse('trim', 0.16, 0.5, 0.07, 0.2, -0.15),
      ellipse('body', 0, 0.83, 0.17, 0.13),
      poly('body', [-0.17, 0.86, -0.07, 0.92, -0.17, 1]),
      poly('body', [0.17, 0.86, 0.07, 0.92, 0.17, 1]),
      circle('accent', -0.07, 0.82, 0.07),
      circle('accent', 0.07, 0.82, 0.07),
      circle('eye', -0.07, 0.82, 0.042),
      circle('eye', 0.07, 0.82, 0.042),
      circle('dark', -0.07, 0.82, 0.018),
      circle('dark', 0.07, 0.82, 0.018),
      poly('dark', [-0.022, 0.76, 0.022, 0.76, 0, 0.7]),
    ],
    colors: { body: [128, 98, 68], accent: [206, 186, 156], trim: [96, 70, 48], eye: [246, 200, 60], dark: [30, 24, 20] },
  };
}

/** A bird in flight, wings raised: a gull's M. */
export function bird(): Silhouette {
  return {
    width: 1.9,
    parts: [
      capsule('body', 0, 0.32, -0.36, 0.74, 0.06),
      capsule('body', -0.36, 0.74, -0.92, 0.44, 0.045),
      capsule('body', 0, 0.32, 0.36, 0.74, 0.06),
      capsule('body', 0.36, 0.74, 0.92, 0.44, 0.045),
      ellipse('body', 0, 0.28, 0.17, 0.08),
    ],
    colors: { body: [44, 44, 50] },
  };
}

/** A fish leaping, tilted nose up. */
export function fish(): Silhouette {
  const tilt = 0.4;
  const pivot = [0, 0.5] as const;
  return {
    width: 1.4,
    parts: [
      poly('body', turned([-0.38, 0.5, -0.7, 0.74, -0.64, 0.27], tilt, pivot[0], pivot[1])),
      poly('trim', turned([-0.1, 0.64, 0.16, 0.66, 0.0, 0.8], tilt, pivot[0], pivot[1])),
      ellipse('body', 0, 0.5, 0.45, 0.19, tilt),
      circle('dark', Math.cos(tilt) * 0.3 - Math.sin(tilt) * 0.04, 0.5 + Math.sin(tilt) * 0.3 + Math.cos(tilt) * 0.04, 0.03),
    ],
    colors: { body: [150, 176, 196], trim: [110, 140, 168], dark: [24, 28, 34] },
  };
}

/** A person standing, facing the viewer. */
export function person(): Silhouette {
  return {
    width: 0.4,
    parts: [
      capsule('trim', -0.05, 0.37, -0.06, 0.03, 0.042),
      capsule('trim', 0.05, 0.37, 0.07, 0.03, 0.042),
      poly('body', [-0.13, 0.34, 0.13, 0.34, 0.1, 0.79, -0.1, 0.79]),
      ellipse('body', 0, 0.76, 0.125, 0.06),
      capsule('body', -0.11, 0.75, -0.16, 0.42, 0.036),
      capsule('body', 0.11, 0.75, 0.16, 0.42, 0.036),
      circle('accent', 0, 0.9, 0.08),
    ],
    colors: { body: [64, 82, 124], trim: [52, 48, 54], accent: [224, 186, 150] },
  };
}

/**
 * A lone peak with a snow cap, its summit off-centre by the variant; `plateau` flattens the
 * summit so something can stand on it. The summit's x is {@link summitOffset}.
 */
/** Where a mountain's summit is, from its centre, in heights. */
export function summitOffset({ variant, span }: Pick<ShapeOptions, 'variant' | 'span'>): number {
  return (variant - 0.5) * 0.3 * (Math.min(2.2, span > 0 ? span : 2.2) / 2);
}

export function mountain({ variant, plateau, span }: ShapeOptions): Silhouette {
  // As wide as the frame allows (`span`), up to 2.2 heights: a narrow frame gets a steeper peak.
  const foot = Math.min(2.2, span > 0 ? span : 2.2) / 2;
  const peak = summitOffset({ variant, span });
  const half = Math.max(0.012, plateau / 2);
  const left = (y: number): number => -foot + (peak - half + foot) * y;
  const right = (y: number): number => foot + (peak + half - foot) * y;
  const snowLine = plateau > 0 ? 0.8 : 0.72;
  const teeth: Primitive[] = [];
  const [from, to] = [left(snowLine), right(snowLine)];
  for (let k = 0; k < 4; k += 1) {
    const a = from + ((to - from) * k) / 4;
    const b = from + ((to - from) * (k + 1)) / 4;
    teeth.push(poly('snow', [a, snowLine + 0.005, b, snowLine + 0.005, (a + b) / 2, snowLine - 0.06]));
  }
  return {
    width: foot * 2,
    parts: [
      poly('body', [-foot, 0, foot, 0, right(1), 1, left(1), 1]),
      poly('trim', [peak + half, 1, foot, 0, peak + 0.25 * foot, 0], 0.45),
      poly('snow', [from, snowLine, to, snowLine, right(1), 1, left(1), 1]),
      ...teeth,
    ],
    colors: { body: [112, 112, 124], trim: [60, 60, 72], snow: [246, 248, 252] },
  };
}
