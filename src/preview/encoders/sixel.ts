/**
 * Sixel, DEC's bitmap escape (VT330/VT340; spoken today by xterm -ti vt340, foot, mlterm,
 * Konsole, WezTerm, Windows Terminal, VS Code with images on): a DCS sequence that paints bands
 * six pixels tall, one colour register at a time.
 *
 * Colours: a fixed palette of 6 × 7 × 6 levels (252 registers, within the 256 the format allows;
 * green gets the extra level because the eye tells its shades apart best) with ordered dithering.
 * An adaptive palette (median cut, k-d tree) looks a little better on flat artwork, but building
 * one for a preview-sized picture (as the `sixel` package does) takes longer than the preview's
 * whole budget; a fixed one costs nothing to build. The picture is flattened over black first
 * (a no-op for an opaque one): sixel has no partial transparency.
 *
 * Every byte written is a fixed character of the format or a number svc computed.
 */
import { flatten, type Pixels } from '../../images/pixels.js';

const LEVELS = [6, 7, 6] as const;

/** `#n;2;r;g;b` for every register: register n in RGB, each channel 0–100 %; index = (r * 7 + g) * 6 + b. */
function paletteDefinitions(): string {
  let out = '';
  const percent = (level: number, count: number) => Math.round((level * 100) / (count - 1));
  for (let r = 0; r < LEVELS[0]; r += 1) {
    for (let g = 0; g < LEVELS[1]; g += 1) {
      for (let b = 0; b < LEVELS[2]; b += 1) {
        out += `#${(r * LEVELS[1] + g) * LEVELS[2] + b};2;${percent(r, LEVELS[0])};${percent(g, LEVELS[1])};${percent(b, LEVELS[2])}`;
      }
    }
  }
  return out;
}

/**
 * The 8 × 8 Bayer matrix: the order in which a tile's 64 places step up to the next level, each
 * next one as far as can be from those before, so a level between two shows as an even scatter
 * of dots rather than as lines or a checkerboard (which a 4 × 4 tile left visible in dark areas).
 */
const BAYER = (() => {
  const matrix = new Uint8Array(64);
  for (let y = 0; y < 8; y += 1) {
    for (let x = 0; x < 8; x += 1) {
      // The bits of x ^ y and y interleaved, lowest first into the highest place: the recursive
      // construction, written out (row 0 reads 0 32 8 40 2 34 10 42).
      const a = x ^ y;
      let value = 0;
      for (let bit = 0; bit < 3; bit += 1) value = (value << 2) | (((a >> bit) & 1) << 1) | ((y >> bit) & 1);
      matrix[y * 8 + x] = value;
    }
  }
  return matrix;
})();

/**
 * For one channel with `count` levels, each value's level at each of the 64 places of a tile,
 * already multiplied by `weight` (its place in the register number): a value a third of the way
 * from one level to the next takes the upper level at a third of the places, so an area keeps its
 * mean colour. Indexed `place * 256 + value`.
 */
function ditherTable(count: number, weight: number): Uint8Array {
  const table = new Uint8Array(64 * 256);
  // The value each level stands for, as the palette defines it (rounded, like its percentages).
  const values = Array.from({ length: count }, (_, level) => Math.round((level * 255) / (count - 1)));
  for (let v = 0; v < 256; v += 1) {
    let below = 0;
    while (below < count - 1 && values[below + 1]! <= v) below += 1;
    // How far v lies from its level towards the next: a colour on a level stays on it.
    const fraction = below === count - 1 ? 0 : (v - values[below]!) / (values[below + 1]! - values[below]!);
    for (let place = 0; place < 64; place += 1) {
      table[place * 256 + v] = (fraction > (BAYER[place]! + 0.5) / 64 ? below + 1 : below) * weight;
    }
  }
  return table;
}

/** One row's registers into `indices` from `p`, its pixels from `i` in `data`, at row `y` of the tiling. */
function quantiseRow(data: Uint8Array, i: number, width: number, y: number, indices: Uint8Array, p: number, red: Uint8Array, green: Uint8Array, blue: Uint8Array): void {
  const row = (y & 7) << 11; // (y mod 8) × 8 places × 256 values
  for (let x = 0; x < width; x += 1, i += 4, p += 1) {
    const place = row | ((x & 7) << 8);
    indices[p] = red[place | data[i]!]! + green[place | data[i + 1]!]! + blue[place | data[i + 2]!]!;
  }
}

/**
 * Each pixel's palette register, by ordered (Bayer) dithering: each channel goes to the level
 * below or above its value according to its place in an 8 × 8 tile, looked up in a table. Error
 * diffusion (Floyd–Steinberg) looks a little smoother, but costs twelve error terms a pixel
 * against three lookups, a sizeable share of the preview's budget on a megapixel; at one
 * terminal pixel per image pixel the 8 × 8 scatter reads as the colour between.
 */
export function quantise(pixels: Pixels): Uint8Array {
  const { width, height, data } = pixels;
  const indices = new Uint8Array(width * height);
  // Register = (r × 7 + g) × 6 + b: red counts 42, green 6, blue 1.
  const red = ditherTable(LEVELS[0], LEVELS[1] * LEVELS[2]);
  const green = ditherTable(LEVELS[1], LEVELS[2]);
  const blue = ditherTable(LEVELS[2], 1);
  for (let y = 0; y < height; y += 1) quantiseRow(data, y * width * 4, width, y, indices, y * width, red, green, blue);
  return indices;
}

/** ASCII written into a byte buffer that grows as needed (string concatenation would be most of the cost). */
class Output {
  bytes: Uint8Array;
  length = 0;

  constructor(expected: number) {
    this.bytes = new Uint8Array(Math.max(1 << 12, expected));
  }

  /** Make room for `extra` more bytes. */
  room(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  text(ascii: string): void {
    this.room(ascii.length);
    this.length += Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.length, ascii.length).write(ascii, 'latin1');
  }

  /** `n` in decimal (0–9999: registers and run lengths). */
  number(n: number): void {
    const { bytes } = this;
    if (n >= 1000) bytes[this.length++] = 48 + Math.floor(n / 1000);
    if (n >= 100) bytes[this.length++] = 48 + (Math.floor(n / 100) % 10);
    if (n >= 10) bytes[this.length++] = 48 + (Math.floor(n / 10) % 10);
    bytes[this.length++] = 48 + (n % 10);
  }

  /** `count` sixels of `char`: the repeat introducer `!n` when that is shorter. */
  run(char: number, count: number): void {
    const { bytes } = this;
    if (count > 3) {
      bytes[this.length++] = 0x21; // !
      this.number(count);
      bytes[this.length++] = char;
    } else {
      for (let k = 0; k < count; k += 1) bytes[this.length++] = char;
    }
  }
}

/** Where a band's sixels are gathered: each register's bits per column, and the columns it has. */
interface Band {
  width: number;
  /** `bits[register * width + x]`: the rows (1 << r) of column x this register paints. */
  bits: Uint8Array;
  /** `columns[register * width + k]`: the k-th column the register paints, left to right. */
  columns: Int32Array;
  /** How many columns each register paints in this band. */
  found: Int32Array;
  /** The registers this band uses, in the order first met. */
  used: number[];
}

/** Read the band of `rows` rows from `top` column by column, so each register's columns come in order. */
function collectBand(band: Band, indices: Uint8Array, top: number, rows: number): void {
  const { width, bits, columns, found, used } = band;
  for (let x = 0; x < width; x += 1) {
    for (let r = 0, at = top * width + x; r < rows; r += 1, at += width) {
      const register = indices[at]!;
      const cell = register * width + x;
      if (bits[cell] === 0) {
        const count = found[register]!;
        if (count === 0) used.push(register);
        columns[register * width + count] = x;
        found[register] = count + 1;
      }
      bits[cell] = bits[cell]! | (1 << r);
    }
  }
}

/** One register's row of sixels in the band, from its list of columns (gaps as runs of `?`); leaves its cells clear. */
function writeRegister(out: Output, band: Band, register: number): void {
  const { width, bits, columns, found } = band;
  const base = register * width;
  const count = found[register]!;
  out.bytes[out.length++] = 0x23; // #
  out.number(register);
  let char = 0;
  let repeat = 0;
  let next = 0; // the first column not yet written
  for (let k = 0; k < count; k += 1) {
    const x = columns[base + k]!;
    const sixel = 63 + bits[base + x]!;
    bits[base + x] = 0;
    if (x > next) {
      // Empty sixels up to this column.
      if (char === 63) {
        repeat += x - next;
      } else {
        if (repeat > 0) out.run(char, repeat);
        char = 63;
        repeat = x - next;
      }
    }
    if (sixel === char) {
      repeat += 1;
    } else {
      if (repeat > 0) out.run(char, repeat);
      char = sixel;
      repeat = 1;
    }
    next = x + 1;
  }
  out.run(char, repeat);
  found[register] = 0;
}

/**
 * The sixel data of indexed pixels: per band of six rows, each register's row of sixels. Each
 * register's row is written from the list of columns it paints, never by scanning the whole width
 * once per register, which with a dithered picture (dozens of registers a band) would be most of
 * the encoder's time.
 */
function writeBands(out: Output, indices: Uint8Array, width: number, height: number, registers: number): void {
  const band: Band = { width, bits: new Uint8Array(registers * width), columns: new Int32Array(registers * width), found: new Int32Array(registers), used: [] };
  for (let top = 0; top < height; top += 6) {
    collectBand(band, indices, top, Math.min(6, height - top));
    out.room(1);
    if (top > 0) out.bytes[out.length++] = 0x2d; // -: down to the next band
    for (let u = 0; u < band.used.length; u += 1) {
      const register = band.used[u]!;
      // At most: "$#nnn", and per column a run of empties ("!nnnn?") and its sixel.
      out.room(8 + band.found[register]! * 7);
      if (u > 0) out.bytes[out.length++] = 0x24; // $: back to the band's start for the next colour
      writeRegister(out, band, register);
    }
    band.used.length = 0;
  }
}

/** The DCS escape that draws `pixels` at the cursor, one terminal pixel per image pixel, as ASCII bytes. */
export function sixelImage(pixels: Pixels): Buffer {
  const indices = quantise(flatten(pixels));
  // A dithered picture takes about three quarters of a byte a pixel: room for one a pixel is seldom outgrown.
  const out = new Output(pixels.width * pixels.height + 4096);
  // P2 = 1: pixels left at 0 keep the screen's colour (every pixel here is painted anyway).
  // `"1;1;w;h`: square pixels and the picture's size, so the terminal can make room at once.
  out.text(`\x1bP0;1;0q"1;1;${pixels.width};${pixels.height}${paletteDefinitions()}`);
  writeBands(out, indices, pixels.width, pixels.height, LEVELS[0] * LEVELS[1] * LEVELS[2]);
  out.text('\x1b\\');
  return Buffer.from(out.bytes.buffer, out.bytes.byteOffset, out.length);
}
