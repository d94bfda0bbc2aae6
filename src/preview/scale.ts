/**
 * Scaling down with an area-average (box) filter: each output pixel is the mean of the source
 * pixels it covers, counted by the fraction of each that falls inside it. Unlike nearest-neighbour
 * it never drops source pixels, so fine detail turns into its average colour instead of
 * shimmering noise; and unlike a plain bilinear sample it needs no separate blur before a large
 * reduction. Colours are weighted by alpha (premultiplied), so a transparent pixel's hidden colour
 * does not bleed into its neighbours.
 *
 * Separable: each source row is filtered across, then rows are summed down.
 */
import type { Pixels } from './pixels.js';

/** For each output index, the source indices it covers and the weight of each (summing to 1). */
interface Spans {
  start: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  /** Where each output's weights begin in `weights`. */
  offset: Int32Array;
}

function spans(source: number, target: number): Spans {
  const ratio = source / target;
  const start = new Int32Array(target);
  const count = new Int32Array(target);
  const offset = new Int32Array(target);
  const list: number[] = [];
  for (let o = 0; o < target; o += 1) {
    const from = o * ratio;
    const to = Math.min(source, (o + 1) * ratio);
    const first = Math.floor(from);
    const last = Math.min(source - 1, Math.ceil(to) - 1);
    start[o] = first;
    count[o] = last - first + 1;
    offset[o] = list.length;
    for (let s = first; s <= last; s += 1) list.push((Math.min(to, s + 1) - Math.max(from, s)) / ratio);
  }
  return { start, count, weights: Float32Array.from(list), offset };
}

/** A float rounded into 0..255 (float sums can land a hair outside; a Uint8Array would wrap). */
function byte(value: number): number {
  return value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value);
}

/**
 * One source row filtered across to `width` premultiplied RGBA floats, into `into`. `opaque`: every
 * alpha is 255, so the colour needs no weighting by it (a quarter of the multiplications).
 */
function filterRow(data: Uint8Array, rowStart: number, across: Spans, width: number, opaque: boolean, into: Float32Array): void {
  const { start, count, weights, offset } = across;
  for (let x = 0, o = 0; x < width; x += 1, o += 4) {
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    let w = offset[x]!;
    let i = rowStart + start[x]! * 4;
    if (opaque) {
      for (let k = count[x]!; k > 0; k -= 1, w += 1, i += 4) {
        const weight = weights[w]!;
        r += data[i]! * weight;
        g += data[i + 1]! * weight;
        b += data[i + 2]! * weight;
      }
      a = 255; // the weights sum to 1
    } else {
      for (let k = count[x]!; k > 0; k -= 1, w += 1, i += 4) {
        const alpha = data[i + 3]! * weights[w]!;
        r += data[i]! * alpha;
        g += data[i + 1]! * alpha;
        b += data[i + 2]! * alpha;
        a += alpha;
      }
    }
    into[o] = r;
    into[o + 1] = g;
    into[o + 2] = b;
    into[o + 3] = a;
  }
}

function isOpaque(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/**
 * `pixels` scaled to exactly `width` × `height` (each at most the source's; never enlarged).
 * Output row by output row: the source rows it covers are filtered across and summed by their
 * weights, so besides the output only two rows of floats are held (a source row on the boundary
 * of two output rows is kept, not filtered twice). 1 MP to a preview: some 10–30 ms.
 */
export function scaleDown(pixels: Pixels, width: number, height: number): Pixels {
  if (width === pixels.width && height === pixels.height) return pixels;
  if (width > pixels.width || height > pixels.height || width < 1 || height < 1) {
    throw new RangeError(`cannot scale ${pixels.width}×${pixels.height} down to ${width}×${height}`);
  }
  const { data, width: sw, height: sh } = pixels;
  const opaque = isOpaque(data);
  const across = spans(sw, width);
  const down = spans(sh, height);
  const stride = width * 4;
  const out = new Uint8Array(stride * height);
  const sum = new Float32Array(stride);
  const row = new Float32Array(stride);
  let filtered = -1; // the source row `row` holds
  for (let y = 0; y < height; y += 1) {
    sum.fill(0);
    for (let k = 0; k < down.count[y]!; k += 1) {
      const source = down.start[y]! + k;
      if (source !== filtered) {
        filterRow(data, source * sw * 4, across, width, opaque, row);
        filtered = source;
      }
      const weight = down.weights[down.offset[y]! + k]!;
      for (let i = 0; i < stride; i += 1) sum[i] = sum[i]! + row[i]! * weight;
    }
    // Back to straight 8-bit colour (opaque rows were never premultiplied: a is 255 there).
    const o = y * stride;
    for (let i = 0; i < stride; i += 4) {
      const a = sum[i + 3]!;
      if (opaque) {
        out[o + i] = byte(sum[i]!);
        out[o + i + 1] = byte(sum[i + 1]!);
        out[o + i + 2] = byte(sum[i + 2]!);
      } else if (a > 0) {
        out[o + i] = byte(sum[i]! / a);
        out[o + i + 1] = byte(sum[i + 1]! / a);
        out[o + i + 2] = byte(sum[i + 2]! / a);
      }
      out[o + i + 3] = byte(a);
    }
  }
  return { width, height, data: out };
}
