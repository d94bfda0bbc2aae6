/**
 * The primitives silhouettes are drawn with, and their rasteriser: convex polygons, ellipses and
 * capsules (thick lines), each filled through its signed distance so every edge is anti-aliased
 * over one pixel. A silhouette is a union of primitives painted in order, which keeps each shape
 * a short list of numbers and the drawing a tight loop over the primitive's bounding box only.
 *
 * Local units: the subject is 1 tall, x runs from the centre (positive to the right), y from the
 * base upwards.
 */
import type { Pixels } from '../../core/images/pixels.js';
import type { Rgb } from './colour.js';

/** What a primitive is painted with; each silhouette gives the colours of the paints it uses. */
export type Paint = 'body' | 'accent' | 'trim' | 'dark' | 'glass' | 'light' | 'beam' | 'snow' | 'eye';

interface Painted {
  paint: Paint;
  /** 0 to 1; 1 unless given. */
  alpha?: number;
}

/** A convex polygon, `points` as x0, y0, x1, y1... in either winding. */
export interface Polygon extends Painted {
  kind: 'poly';
  points: readonly number[];
}

/** An ellipse, turned by `angle` radians (counter-clockwise). */
export interface Ellipse extends Painted {
  kind: 'ellipse';
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  angle?: number;
}

/** A segment with round ends, `r` thick on each side. */
export interface Capsule extends Painted {
  kind: 'capsule';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  r: number;
}

export type Primitive = Polygon | Ellipse | Capsule;

/** Where a silhouette goes: its base centre in pixels, its height in pixels, mirrored or not. */
export interface Placement {
  cx: number;
  baseY: number;
  scale: number;
  flip: boolean;
}

/** Shorthands for the shape tables. */
export const poly = (paint: Paint, points: readonly number[], alpha?: number): Polygon => ({ kind: 'poly', paint, points, alpha });
export const rect = (paint: Paint, x0: number, y0: number, x1: number, y1: number): Polygon => poly(paint, [x0, y0, x1, y0, x1, y1, x0, y1]);
export const ellipse = (paint: Paint, cx: number, cy: number, rx: number, ry: number, angle = 0): Ellipse => ({ kind: 'ellipse', paint, cx, cy, rx, ry, angle });
export const circle = (paint: Paint, cx: number, cy: number, r: number): Ellipse => ellipse(paint, cx, cy, r, r);
export const capsule = (paint: Paint, x0: number, y0: number, x1: number, y1: number, r: number): Capsule => ({ kind: 'capsule', paint, x0, y0, x1, y1, r });

/** The primitive's extent in local units: [minX, minY, maxX, maxY]. */
function bounds(p: Primitive): [number, number, number, number] {
  switch (p.kind) {
    case 'poly': {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = 0; i < p.points.length; i += 2) {
        x0 = Math.min(x0, p.points[i]!);
        x1 = Math.max(x1, p.points[i]!);
        y0 = Math.min(y0, p.points[i + 1]!);
        y1 = Math.max(y1, p.points[i + 1]!);
      }
      return [x0, y0, x1, y1];
    }
    case 'ellipse': {
      const r = Math.max(p.rx, p.ry);
      return [p.cx - r, p.cy - r, p.cx + r, p.cy + r];
    }
    case 'capsule':
      return [Math.min(p.x0, p.x1) - p.r, Math.min(p.y0, p.y1) - p.r, Math.max(p.x0, p.x1) + p.r, Math.max(p.y0, p.y1) + p.r];
  }
}

/** Edge lines of a convex polygon: a, b, c per edge with a·x + b·y + c the signed distance (outside > 0). */
function edgeLines(pts: readonly number[]): Float64Array {
  const n = pts.length / 2;
  let area = 0;
  for (let i = 0; i < n; i += 1) {
    const j = (i + 1) % n;
    area += pts[2 * i]! * pts[2 * j + 1]! - pts[2 * j]! * pts[2 * i + 1]!;
  }
  const sign = area > 0 ? 1 : -1;
  const edges = new Float64Array(n * 3);
  for (let i = 0; i < n; i += 1) {
    const j = (i + 1) % n;
    const dx = pts[2 * j]! - pts[2 * i]!;
    const dy = pts[2 * j + 1]! - pts[2 * i + 1]!;
    const length = Math.hypot(dx, dy) || 1;
    const a = (sign * dy) / length;
    const b = (-sign * dx) / length;
    edges[3 * i] = a;
    edges[3 * i + 1] = b;
    edges[3 * i + 2] = -(a * pts[2 * i]! + b * pts[2 * i + 1]!);
  }
  return edges;
}

/**
 * The local x range on the row at `ly` where every edge's distance is below `margin`: the
 * polygon grown (or, with a negative margin, shrunk) by `margin`. Empty when lo > hi.
 */
function rowSpan(edges: Float64Array, ly: number, margin: number): [number, number] {
  let lo = -Infinity;
  let hi = Infinity;
  for (let e = 0; e < edges.length; e += 3) {
    const a = edges[e]!;
    const rest = margin - edges[e + 1]! * ly - edges[e + 2]!;
    if (Math.abs(a) < 1e-12) {
      if (rest < 0) return [1, 0];
    } else if (a > 0) {
      hi = Math.min(hi, rest / a);
    } else {
      lo = Math.max(lo, rest / a);
    }
  }
  return [lo, hi];
}

/**
 * Fills `primitive`'s pixels by its signed distance `d` (local units, negative inside): the
 * coverage is 0.5 − d in pixels, so the edge is soft over one pixel. One loop per kind, with the
 * distance written out in it: a shared callback would be slow (about 4× here) once it has seen
 * all three kinds. Polygons: the largest distance to an edge line (exact inside, close enough at
 * corners for a one-pixel edge). Ellipses: the usual first-order estimate. Capsules: exact.
 */
export function fillPrimitive(pixels: Pixels, primitive: Primitive, at: Placement, color: Rgb): void {
  const { width, height, data } = pixels;
  const [minX, minY, maxX, maxY] = bounds(primitive);
  const mirror = at.flip ? -1 : 1;
  const left = at.flip ? at.cx - maxX * at.scale : at.cx + minX * at.scale;
  const right = at.flip ? at.cx - minX * at.scale : at.cx + maxX * at.scale;
  const x0 = Math.max(0, Math.floor(left - 1));
  const x1 = Math.min(width - 1, Math.ceil(right + 1));
  const y0 = Math.max(0, Math.floor(at.baseY - maxY * at.scale - 1));
  const y1 = Math.min(height - 1, Math.ceil(at.baseY - minY * at.scale + 1));
  if (x0 > x1 || y0 > y1) return;
  const alpha = primitive.alpha ?? 1;
  const [r, g, b] = color;
  const { scale, cx, baseY } = at;
  /**
   * The pixel columns whose centres lie within local [lo, hi] (`inside`: strictly within), clamped
   * to the primitive's box; mirrored placements swap the ends.
   */
  const columns = (lo: number, hi: number, inside = false): [number, number] => {
    const [a, b] = mirror > 0 ? [cx + lo * scale, cx + hi * scale] : [cx - hi * scale, cx - lo * scale];
    return inside ? [Math.max(x0, Math.ceil(a - 0.5)), Math.min(x1, Math.floor(b - 0.5))] : [Math.max(x0, Math.floor(a - 0.5)), Math.min(x1, Math.ceil(b - 0.5))];
  };
  /** Pixels `from`..`to` of row `y`, wholly inside: one colour at the primitive's alpha. */
  const fillRow = (y: number, from: number, to: number): void => {
    const end = (y * width + to) * 4;
    if (alpha >= 1) {
      for (let i = (y * width + from) * 4; i <= end; i += 4) {
        data[i] = r;
        data[i + 1] = g;
        data[i + 2] = b;
      }
      return;
    }
    for (let i = (y * width + from) * 4; i <= end; i += 4) {
      data[i] = data[i]! + (r - data[i]!) * alpha;
      data[i + 1] = data[i + 1]! + (g - data[i + 1]!) * alpha;
      data[i + 2] = data[i + 2]! + (b - data[i + 2]!) * alpha;
    }
  };
  const put = (x: number, y: number, d: number): void => {
    const cover = 0.5 - d * scale;
    if (cover <= 0) return;
    const t = (cover >= 1 ? 1 : cover) * alpha;
    const i = (y * width + x) * 4;
    data[i] = data[i]! + (r - data[i]!) * t;
    data[i + 1] = data[i + 1]! + (g - data[i + 1]!) * t;
    data[i + 2] = data[i + 2]! + (b - data[i + 2]!) * t;
  };
  switch (primitive.kind) {
    case 'poly': {
      const edges = edgeLines(primitive.points);
      const count = edges.length;
      const soft = 0.5 / scale;
      for (let y = y0; y <= y1; y += 1) {
        const ly = (baseY - (y + 0.5)) / scale;
        // Only the columns where some cover is possible (every edge within half a pixel), and
        // inside them the columns fully covered (every edge half a pixel away) need no distance.
        const [outerLo, outerHi] = rowSpan(edges, ly, soft);
        if (outerLo > outerHi) continue;
        const [innerLo, innerHi] = rowSpan(edges, ly, -soft);
        const [from, to] = columns(outerLo, outerHi);
        const [fullFrom, fullTo] = innerLo <= innerHi ? columns(innerLo, innerHi, true) : [1, 0];
        if (fullFrom <= fullTo) fillRow(y, fullFrom, fullTo);
        for (let x = from; x <= to; x += 1) {
          if (x === fullFrom && fullFrom <= fullTo) {
            x = fullTo;
            continue;
          }
          const lx = (mirror * (x + 0.5 - cx)) / scale;
          let d = -Infinity;
          for (let e = 0; e < count; e += 3) {
            const v = edges[e]! * lx + edges[e + 1]! * ly + edges[e + 2]!;
            if (v > d) d = v;
          }
          put(x, y, d);
        }
      }
      return;
    }
    case 'ellipse': {
      const cos = Math.cos(primitive.angle ?? 0);
      const sin = Math.sin(primitive.angle ?? 0);
      const { rx, ry } = primitive;
      const [irx2, iry2] = [1 / (rx * rx), 1 / (ry * ry)];
      const inner = -Math.min(rx, ry);
      for (let y = y0; y <= y1; y += 1) {
        const dy = (baseY - (y + 0.5)) / scale - primitive.cy;
        for (let x = x0; x <= x1; x += 1) {
          const dx = (mirror * (x + 0.5 - cx)) / scale - primitive.cx;
          const u = dx * cos + dy * sin;
          const v = -dx * sin + dy * cos;
          const k = Math.sqrt(u * u * irx2 + v * v * iry2);
          const gradient = Math.sqrt(u * u * irx2 * irx2 + v * v * iry2 * iry2);
          put(x, y, k < 1e-9 ? inner : ((k - 1) * k) / gradient);
        }
      }
      return;
    }
    case 'capsule': {
      const { x0: ax, y0: ay, x1: bx, y1: by, r: radius } = primitive;
      const [ex, ey] = [bx - ax, by - ay];
      const lengthSq = ex * ex + ey * ey || 1;
      for (let y = y0; y <= y1; y += 1) {
        const py = (baseY - (y + 0.5)) / scale - ay;
        for (let x = x0; x <= x1; x += 1) {
          const px = (mirror * (x + 0.5 - cx)) / scale - ax;
          const t = Math.max(0, Math.min(1, (px * ex + py * ey) / lengthSq));
          const [qx, qy] = [px - t * ex, py - t * ey];
          put(x, y, Math.sqrt(qx * qx + qy * qy) - radius);
        }
      }
    }
  }
}

/** Points of a convex polygon turned by `angle` radians about (cx, cy). */
export function turned(points: readonly number[], angle: number, cx = 0, cy = 0): number[] {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const out: number[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const dx = points[i]! - cx;
    const dy = points[i + 1]! - cy;
    out.push(cx + dx * cos - dy * sin, cy + dx * sin + dy * cos);
  }
  return out;
}
