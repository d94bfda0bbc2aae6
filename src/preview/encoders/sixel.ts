/**
 * Sixel, DEC's bitmap escape (VT330/VT340; spoken today by xterm -ti vt340, foot, mlterm,
 * Konsole, WezTerm, Windows Terminal, VS Code with images on): a DCS sequence that paints bands
 * six pixels tall, one colour register at a time.
 *
 * Colours: a fixed palette of 6 × 7 × 6 levels (252 registers, within the 256 the format allows;
 * green gets the extra level because the eye tells its shades apart best) with Floyd–Steinberg
 * error diffusion. An adaptive palette (median cut, k-d tree) looks a little better on flat
 * artwork, but the `sixel` package's took about 0.2–0.4 s for a preview-sized picture, far over
 * the preview's budget; this one takes a few tens of milliseconds. The picture is flattened over
 * black first: sixel has no partial transparency.
 *
 * Every byte written is a fixed character of the format or a number svc computed.
 */
import { flatten, type Pixels } from '../pixels.js';

const LEVELS = [6, 7, 6] as const;

/** The palette register of each level combination: index = (r * 7 + g) * 6 + b. */
function paletteDefinitions(): string {
  let out = '';
  for (let r = 0; r < LEVELS[0]; r += 1) {
    for (let g = 0; g < LEVELS[1]; g += 1) {
      for (let b = 0; b < LEVELS[2]; b += 1) {
        const percent = (level: number, count: number) => Math.round((level * 100) / (count - 1));
        // `#n;2;r;g;b`: register n in RGB, each channel 0–100 %.
        out += `#${(r * LEVELS[1] + g) * LEVELS[2] + b};2;${percent(r, LEVELS[0])};${percent(g, LEVELS[1])};${percent(b, LEVELS[2])}`;
      }
    }
  }
  return out;
}

/**
 * Each pixel's palette register, with Floyd–Steinberg diffusion of the rounding error. Integer
 * arithmetic throughout: errors are kept in sixteenths, so the 7/16, 3/16, 5/16, 1/16 shares
 * stay exact, and each channel's level comes from a table.
 */
export function quantise(pixels: Pixels): Uint8Array {
  const { width, height, data } = pixels;
  const indices = new Uint8Array(width * height);
  // For each channel and each value 0..255: its nearest level, and that level's value.
  const level = LEVELS.map((count) => Uint8Array.from({ length: 256 }, (_, v) => Math.round((v * (count - 1)) / 255)));
  const value = LEVELS.map((count) => Int32Array.from({ length: count }, (_, l) => Math.round((l * 255) / (count - 1))));
  // The error carried into this row and the next, per channel (in 1/16), a spare cell at each end.
  let current = new Int32Array((width + 2) * 3);
  let next = new Int32Array((width + 2) * 3);
  for (let y = 0; y < height; y += 1) {
    next.fill(0);
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      const e = (x + 1) * 3;
      let index = 0;
      for (let c = 0; c < 3; c += 1) {
        const wanted = Math.min(255, Math.max(0, data[i + c]! + (current[e + c]! >> 4)));
        const l = level[c]![wanted]!;
        const error = wanted - value[c]![l]!;
        index = index * LEVELS[c]! + l;
        current[e + 3 + c] = current[e + 3 + c]! + error * 7;
        next[e - 3 + c] = next[e - 3 + c]! + error * 3;
        next[e + c] = next[e + c]! + error * 5;
        next[e + 3 + c] = next[e + 3 + c]! + error;
      }
      indices[y * width + x] = index;
    }
    [current, next] = [next, current];
  }
  return indices;
}

/** The sixel data of indexed pixels: per band of six rows, each register's row of sixels. */
function bands(indices: Uint8Array, width: number, height: number, registers: number): string {
  // ASCII written into a byte buffer (string concatenation was most of the cost). A register's
  // line is at most "$#nnn", a repeat, and one byte per column: room for that is made first.
  let out = new Uint8Array(1 << 16);
  let length = 0;
  const room = (extra: number) => {
    if (length + extra <= out.length) return;
    const grown = new Uint8Array(Math.max(out.length * 2, length + extra));
    grown.set(out.subarray(0, length));
    out = grown;
  };
  const number = (n: number) => {
    if (n >= 100) out[length++] = 48 + Math.floor(n / 100);
    if (n >= 10) out[length++] = 48 + (Math.floor(n / 10) % 10);
    out[length++] = 48 + (n % 10);
  };
  /** `count` sixels of `char`: the repeat introducer `!n` when that is shorter. */
  const run = (char: number, count: number) => {
    if (count > 3) {
      out[length++] = 0x21; // !
      number(count);
      out[length++] = char;
    } else {
      for (let k = 0; k < count; k += 1) out[length++] = char;
    }
  };
  const bits = new Uint8Array(registers * width);
  const first = new Int32Array(registers).fill(-1);
  const last = new Int32Array(registers);
  const used: number[] = [];
  for (let top = 0; top < height; top += 6) {
    if (top > 0) {
      room(1);
      out[length++] = 0x2d; // -: down to the next band
    }
    const rows = Math.min(6, height - top);
    for (let r = 0; r < rows; r += 1) {
      const row = (top + r) * width;
      const bit = 1 << r;
      for (let x = 0; x < width; x += 1) {
        const register = indices[row + x]!;
        if (first[register] === -1) {
          first[register] = x;
          used.push(register);
        } else if (x < first[register]!) {
          first[register] = x;
        }
        if (x > last[register]!) last[register] = x;
        const at = register * width + x;
        bits[at] = bits[at]! | bit;
      }
    }
    for (let u = 0; u < used.length; u += 1) {
      const register = used[u]!;
      const base = register * width;
      const from = first[register]!;
      const to = last[register]!;
      room(16 + to + 1);
      if (u > 0) out[length++] = 0x24; // $: back to the band's start for the next colour
      out[length++] = 0x23; // #
      number(register);
      if (from > 0) run(63, from); // empty sixels up to this colour's first pixel
      let char = 63 + bits[base + from]!;
      let count = 1;
      for (let x = from + 1; x <= to; x += 1) {
        const sixel = 63 + bits[base + x]!;
        if (sixel === char) {
          count += 1;
        } else {
          run(char, count);
          char = sixel;
          count = 1;
        }
      }
      run(char, count);
      // Ready for the next band: clear only what this colour set.
      bits.fill(0, base + from, base + to + 1);
      first[register] = -1;
      last[register] = 0;
    }
    used.length = 0;
  }
  return Buffer.from(out.buffer, 0, length).toString('latin1');
}

/** The DCS escape that draws `pixels` at the cursor, one terminal pixel per image pixel. */
export function sixelImage(pixels: Pixels): string {
  const opaque = flatten(pixels);
  const indices = quantise(opaque);
  const registers = LEVELS[0] * LEVELS[1] * LEVELS[2];
  // P2 = 1: pixels left at 0 keep the screen's colour (every pixel here is painted anyway).
  // `"1;1;w;h`: square pixels and the picture's size, so the terminal can make room at once.
  return `\x1bP0;1;0q"1;1;${pixels.width};${pixels.height}${paletteDefinitions()}${bands(indices, pixels.width, pixels.height, registers)}\x1b\\`;
}
