/**
 * Scaling down with an area-average (box) filter: each output pixel is the mean of the source
 * pixels it covers, counted by the fraction of each that falls inside it. Unlike nearest-neighbour
 * it never drops source pixels, so fine detail turns into its average colour instead of
 * shimmering noise; and unlike a plain bilinear sample it needs no separate blur before a large
 * reduction. Colours are weighted by alpha (premultiplied), so a transparent pixel's hidden colour
 * does not bleed into its neighbours.
 *
 * Separable: each source row is filtered across, then rows are summed down. The source may be
 * RGB or RGBA rows straight from the decoder (pixels.ts, PixelRows): nothing is copied first.
 */
import { isOpaque, toPixels, type PixelRows, type Pixels } from './pixels.js';

/**
 * For each output index, the source indices it covers and the weight of each (summing to 1), as a
 * fixed number of taps per output (the most any output needs), so the loops below have a known
 * shape. An output that needs fewer has zero weights for the rest; its first tap is moved left when
 * needed so that every tap it reads is inside the row.
 */
interface Spans {
  /** The first source index each output reads. */
  start: Int32Array;
  /** Taps per output. */
  taps: number;
  /** `weights[output * taps + k]`: the weight of source index start + k. */
  weights: Float64Array;
}

function spans(source: number, target: number): Spans {
  const ratio = source / target;
  const taps = Math.min(source, Math.ceil(ratio) + 1);
  const start = new Int32Array(target);
  const weights = new Float64Array(target * taps);
  for (let o = 0; o < target; o += 1) {
    const from = o * ratio;
    const to = Math.min(source, (o + 1) * ratio);
    const first = Math.floor(from);
    const last = Math.min(source - 1, Math.ceil(to) - 1);
    const base = Math.min(first, source - taps);
    start[o] = base;
    for (let s = first; s <= last; s += 1) weights[o * taps + (s - base)] = (Math.min(to, s + 1) - Math.max(from, s)) / ratio;
  }
  return { start, taps, weights };
}

/**
 * One opaque source row filtered across to `width` RGB floats (3 a pixel), into `into`, for
 * spans of exactly three taps (any reduction of up to 2×, the usual one for a preview), written
 * out with no inner loop. The source pixel is `channels` bytes (3 or 4; alpha, all 255, is not read).
 */
function filterOpaqueRow3(data: Uint8Array, rowStart: number, channels: number, across: Spans, width: number, into: Float64Array): void {
  const { start, weights } = across;
  const c2 = channels * 2;
  for (let x = 0, o = 0; x < width; x += 1, o += 3) {
    const i = rowStart + start[x]! * channels;
    const w0 = weights[o]!;
    const w1 = weights[o + 1]!;
    const w2 = weights[o + 2]!;
    into[o] = data[i]! * w0 + data[i + channels]! * w1 + data[i + c2]! * w2;
    into[o + 1] = data[i + 1]! * w0 + data[i + channels + 1]! * w1 + data[i + c2 + 1]! * w2;
    into[o + 2] = data[i + 2]! * w0 + data[i + channels + 2]! * w1 + data[i + c2 + 2]! * w2;
  }
}

/** As {@link filterOpaqueRow3}, for any number of taps. */
function filterOpaqueRow(data: Uint8Array, rowStart: number, channels: number, across: Spans, width: number, into: Float64Array): void {
  const { start, taps, weights } = across;
  for (let x = 0, o = 0, w = 0; x < width; x += 1, o += 3) {
    let r = 0;
    let g = 0;
    let b = 0;
    let i = rowStart + start[x]! * channels;
    for (let k = 0; k < taps; k += 1, w += 1, i += channels) {
      const weight = weights[w]!;
      r += data[i]! * weight;
      g += data[i + 1]! * weight;
      b += data[i + 2]! * weight;
    }
    into[o] = r;
    into[o + 1] = g;
    into[o + 2] = b;
  }
}

/** One RGBA source row filtered across to `width` premultiplied RGBA floats (4 a pixel), into `into`. */
function filterAlphaRow(data: Uint8Array, rowStart: number, across: Spans, width: number, into: Float64Array): void {
  const { start, taps, weights } = across;
  for (let x = 0, o = 0, w = 0; x < width; x += 1, o += 4) {
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    let i = rowStart + start[x]! * 4;
    for (let k = 0; k < taps; k += 1, w += 1, i += 4) {
      const alpha = data[i + 3]! * weights[w]!;
      r += data[i]! * alpha;
      g += data[i + 1]! * alpha;
      b += data[i + 2]! * alpha;
      a += alpha;
    }
    into[o] = r;
    into[o + 1] = g;
    into[o + 2] = b;
    into[o + 3] = a;
  }
}

function rowsOpaque(rows: PixelRows): boolean {
  if (rows.channels === 3) return true;
  if (rows.offset === 0 && rows.stride === rows.width * 4) return isOpaque(rows);
  for (let y = 0; y < rows.height; y += 1) {
    const start = rows.offset + y * rows.stride;
    for (let i = start + 3; i < start + rows.width * 4; i += 4) if (rows.data[i] !== 255) return false;
  }
  return true;
}

/** `sum += row × weight`, element by element. */
function addWeighted(sum: Float64Array, row: Float64Array, weight: number): void {
  for (let i = 0; i < sum.length; i += 1) sum[i] = sum[i]! + row[i]! * weight;
}

/**
 * One output row of RGB sums into RGBA bytes at `o`. `out` is a Uint8ClampedArray: it rounds each
 * float to the nearest byte and clamps it into 0..255 (float sums can land a hair outside) itself.
 */
function writeOpaqueRow(sum: Float64Array, out: Uint8ClampedArray, o: number): void {
  for (let i = 0; i < sum.length; i += 3, o += 4) {
    out[o] = sum[i]!;
    out[o + 1] = sum[i + 1]!;
    out[o + 2] = sum[i + 2]!;
    out[o + 3] = 255;
  }
}

/** One output row of premultiplied RGBA sums into straight RGBA bytes at `o` (rounded and clamped as above). */
function writeAlphaRow(sum: Float64Array, out: Uint8ClampedArray, o: number): void {
  for (let i = 0; i < sum.length; i += 4, o += 4) {
    const a = sum[i + 3]!;
    if (a > 0) {
      out[o] = sum[i]! / a;
      out[o + 1] = sum[i + 1]! / a;
      out[o + 2] = sum[i + 2]! / a;
    }
    out[o + 3] = a;
  }
}

/**
 * `source` scaled to exactly `width` × `height` (each at most the source's; never enlarged), as
 * plain RGBA; at its own size, the same pixels (or the rows made plain).
 * Output row by output row: the source rows it covers are filtered across and summed by their
 * weights, so besides the output only two rows of floats are held (a source row on the boundary
 * of two output rows is kept, not filtered twice). Opaque pictures (every RGB one) carry three
 * floats a pixel, not four, and need no weighting by alpha. Each loop is a function of its own:
 * this runs once per process, and V8 optimises small functions called row after row sooner and
 * more surely than one large loop entered once.
 */
export function scaleDown(source: Pixels | PixelRows, width: number, height: number): Pixels {
  if (width === source.width && height === source.height) return 'channels' in source ? toPixels(source) : source;
  const rows: PixelRows = 'channels' in source ? source : { ...source, channels: 4, offset: 0, stride: source.width * 4 };
  if (width > rows.width || height > rows.height || width < 1 || height < 1) {
    throw new RangeError(`cannot scale ${rows.width}×${rows.height} down to ${width}×${height}`);
  }
  const { data, channels, offset, stride: sourceStride } = rows;
  const opaque = rowsOpaque(rows);
  const across = spans(rows.width, width);
  const down = spans(rows.height, height);
  const out = new Uint8Array(width * height * 4);
  const clamped = new Uint8ClampedArray(out.buffer);
  const sum = new Float64Array(width * (opaque ? 3 : 4));
  const row = new Float64Array(sum.length);
  let filtered = -1; // the source row `row` holds
  for (let y = 0; y < height; y += 1) {
    sum.fill(0);
    for (let k = 0; k < down.taps; k += 1) {
      const weight = down.weights[y * down.taps + k]!;
      if (weight === 0) continue;
      const sourceRow = down.start[y]! + k;
      if (sourceRow !== filtered) {
        const rowStart = offset + sourceRow * sourceStride;
        if (opaque && across.taps === 3) filterOpaqueRow3(data, rowStart, channels, across, width, row);
        else if (opaque) filterOpaqueRow(data, rowStart, channels, across, width, row);
        else filterAlphaRow(data, rowStart, across, width, row);
        filtered = sourceRow;
      }
      addWeighted(sum, row, weight);
    }
    // Back to straight 8-bit colour (opaque rows were never premultiplied).
    if (opaque) writeOpaqueRow(sum, clamped, y * width * 4);
    else writeAlphaRow(sum, clamped, y * width * 4);
  }
  return { width, height, data: out };
}
