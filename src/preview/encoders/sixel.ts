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

/** Each pixel's palette register, with Floyd–Steinberg diffusion of the rounding error. */
export function quantise(pixels: Pixels): Uint8Array {
  const { width, height, data } = pixels;
  const indices = new Uint8Array(width * height);
  // The error carried into this row and the next, per channel, with a spare cell at each end.
  let current = new Float32Array((width + 2) * 3);
  let next = new Float32Array((width + 2) * 3);
  for (let y = 0; y < height; y += 1) {
    next.fill(0);
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      const e = (x + 1) * 3;
      let index = 0;
      for (let c = 0; c < 3; c += 1) {
        const steps = LEVELS[c]! - 1;
        const wanted = Math.min(255, Math.max(0, data[i + c]! + current[e + c]!));
        const level = Math.round((wanted * steps) / 255);
        const error = wanted - (level * 255) / steps;
        index = index * LEVELS[c]! + level;
        // 7/16 right, 3/16 below left, 5/16 below, 1/16 below right.
        current[e + 3 + c] = current[e + 3 + c]! + (error * 7) / 16;
        next[e - 3 + c] = next[e - 3 + c]! + (error * 3) / 16;
        next[e + c] = next[e + c]! + (error * 5) / 16;
        next[e + 3 + c] = next[e + 3 + c]! + error / 16;
      }
      indices[y * width + x] = index;
    }
    [current, next] = [next, current];
  }
  return indices;
}

/** A run of `count` identical sixel characters, with the repeat introducer when it is shorter. */
function run(char: number, count: number): string {
  const text = String.fromCharCode(char);
  return count > 3 ? `!${count}${text}` : text.repeat(count);
}

/** The sixel data of indexed pixels: per band of six rows, each register's row of sixels. */
function bands(indices: Uint8Array, width: number, height: number, registers: number): string {
  const parts: string[] = [];
  const bits = new Uint8Array(registers * width);
  const first = new Int32Array(registers);
  const last = new Int32Array(registers);
  for (let top = 0; top < height; top += 6) {
    bits.fill(0);
    first.fill(width);
    last.fill(-1);
    const rows = Math.min(6, height - top);
    for (let r = 0; r < rows; r += 1) {
      const row = (top + r) * width;
      for (let x = 0; x < width; x += 1) {
        const register = indices[row + x]!;
        bits[register * width + x]! |= 1 << r;
        if (x < first[register]!) first[register] = x;
        if (x > last[register]!) last[register] = x;
      }
    }
    const band: string[] = [];
    for (let register = 0; register < registers; register += 1) {
      if (last[register]! < 0) continue;
      // From the band's left edge (the `$` before went back there) to this colour's last pixel.
      let line = `#${register}`;
      let char = -1;
      let count = 0;
      const base = register * width;
      for (let x = 0; x <= last[register]!; x += 1) {
        const sixel = 63 + bits[base + x]!;
        if (sixel === char) {
          count += 1;
        } else {
          if (count > 0) line += run(char, count);
          char = sixel;
          count = 1;
        }
      }
      line += run(char, count);
      band.push(line);
    }
    // `$` returns to the band's start for the next colour; `-` moves down to the next band.
    parts.push(band.join('$'));
  }
  return parts.join('-');
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
