/**
 * Reading svc's preview escapes back into pixels, for tests: kitty's APC chunks, iTerm2's OSC
 * 1337 file, half-block lines and sixel (through the `sixel` package's decoder, written by the
 * author of xterm.js's sixel support, so the parse is independent of svc's encoder).
 */
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { decode as decodeSixelData } from 'sixel';
import type { Pixels } from '../../src/images/pixels.js';

export interface KittyImage {
  /** The first escape's control keys (a, f, o, s, v, c, r, q ...). */
  control: Record<string, string>;
  /** How many escapes carried it. */
  chunks: number;
  /** Every chunk's payload length (the protocol allows at most 4096). */
  chunkLengths: number[];
  pixels: Pixels;
}

const KITTY = /\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\/g;

function keys(text: string): Record<string, string> {
  return Object.fromEntries(text.split(',').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
}

/** Every kitty image in `text`, its chunks joined, decompressed and checked against its size keys. */
export function kittyImages(text: string): KittyImage[] {
  const images: KittyImage[] = [];
  let current: { control: Record<string, string>; payload: string[] } | undefined;
  for (const [, controlText, payload] of text.matchAll(KITTY)) {
    const control = keys(controlText!);
    current ??= { control, payload: [] };
    current.payload.push(payload!);
    if (control.m === '0') {
      const raw = Buffer.from(current.payload.join(''), 'base64');
      const data = current.control.o === 'z' ? inflateSync(raw) : raw;
      const width = Number(current.control.s);
      const height = Number(current.control.v);
      if (current.control.f !== '32' || data.length !== width * height * 4) throw new Error(`kitty image of ${data.length} bytes is not ${width}×${height} RGBA`);
      images.push({ control: current.control, chunks: current.payload.length, chunkLengths: current.payload.map((piece) => piece.length), pixels: { width, height, data: new Uint8Array(data) } });
      current = undefined;
    }
  }
  if (current) throw new Error('a kitty image was never finished (no m=0 chunk)');
  return images;
}

export interface ItermImage {
  args: Record<string, string>;
  file: Buffer;
  pixels: Pixels;
}

const ITERM = /\x1b\]1337;File=([^:\x07\x1b]*):([A-Za-z0-9+/=]*)\x07/g;

/** Every iTerm2 inline image in `text`, its file decoded as a PNG. */
export function itermImages(text: string): ItermImage[] {
  return [...text.matchAll(ITERM)].map(([, argText, payload]) => {
    const args = Object.fromEntries(argText!.split(';').map((pair) => pair.split('=') as [string, string]));
    const file = Buffer.from(payload!, 'base64');
    const png = PNG.sync.read(file);
    return { args, file, pixels: { width: png.width, height: png.height, data: new Uint8Array(png.data) } };
  });
}

/** The sixel images in `text`, decoded. */
export function sixelImages(text: string): Array<{ introducer: string; raster: string | undefined; pixels: Pixels }> {
  return [...text.matchAll(/\x1bP([\d;]*)q([^\x1b]*)\x1b\\/g)].map(([, introducer, body]) => {
    const decoded = decodeSixelData(body!);
    return { introducer: introducer!, raster: /^"([\d;]+)/.exec(body!)?.[1], pixels: { width: decoded.width, height: decoded.height, data: new Uint8Array(decoded.data8) } };
  });
}

/** xterm's 256-colour palette (16–255) as RGB, to read 256-colour half blocks back. */
export function paletteColour(index: number): [number, number, number] {
  if (index >= 232) {
    const grey = 8 + 10 * (index - 232);
    return [grey, grey, grey];
  }
  const cube = [0, 95, 135, 175, 215, 255];
  const n = index - 16;
  return [cube[Math.floor(n / 36)]!, cube[Math.floor(n / 6) % 6]!, cube[n % 6]!];
}

/**
 * Half-block lines back to pixels (two per cell); a lower half on the terminal's own background
 * (SGR 49) reads as alpha 0. svc ends every line with a reset (checked); a screen captured from
 * tmux (`from: 'tmux'`) carries its colours on instead. Anything other than SGR escapes and `▀`
 * on a line with blocks fails the parse.
 */
export function halfBlockPixels(text: string, from: 'svc' | 'tmux' = 'svc'): Pixels {
  const lines = text.split('\n').filter((line) => line.includes('▀'));
  const rows: Array<Array<[number, number, number, number]>> = [];
  let width = -1;
  let fg: [number, number, number, number] = [0, 0, 0, 0];
  let bg: [number, number, number, number] = [0, 0, 0, 0];
  for (const line of lines) {
    if (from === 'svc' && !line.endsWith('\x1b[0m')) throw new Error(`a half-block line does not end with a reset: ${JSON.stringify(line.slice(-20))}`);
    const upper: Array<[number, number, number, number]> = [];
    const lower: Array<[number, number, number, number]> = [];
    if (from === 'svc') {
      fg = [0, 0, 0, 0];
      bg = [0, 0, 0, 0];
    }
    for (const [, sgr, block] of line.matchAll(/\x1b\[([\d;]*)m|(▀)/g)) {
      if (block) {
        upper.push(fg);
        lower.push(bg);
        continue;
      }
      const p = sgr!.split(';').map(Number);
      for (let i = 0; i < p.length; i += 1) {
        const layer = p[i];
        if (layer === 0) {
          fg = [0, 0, 0, 0];
          bg = [0, 0, 0, 0];
        } else if (layer === 49) {
          bg = [0, 0, 0, 0];
        } else if (layer === 39) {
          fg = [0, 0, 0, 0];
        } else if ((layer === 38 || layer === 48) && p[i + 1] === 2) {
          const colour: [number, number, number, number] = [p[i + 2]!, p[i + 3]!, p[i + 4]!, 255];
          if (layer === 38) fg = colour;
          else bg = colour;
          i += 4;
        } else if ((layer === 38 || layer === 48) && p[i + 1] === 5) {
          const colour: [number, number, number, number] = [...paletteColour(p[i + 2]!), 255];
          if (layer === 38) fg = colour;
          else bg = colour;
          i += 2;
        } else {
          throw new Error(`unexpected SGR ${sgr}`);
        }
      }
    }
    const rest = line.replace(/\x1b\[[\d;]*m|▀/g, '');
    if (rest !== '') throw new Error(`a half-block line holds more than colours and blocks: ${JSON.stringify(rest)}`);
    if (width >= 0 && upper.length !== width) throw new Error('half-block lines of different widths');
    width = upper.length;
    rows.push(upper, lower);
  }
  // A last lower row drawn on the terminal's background belongs to no pixel.
  if (rows.length > 0 && rows.at(-1)!.every((pixel) => pixel[3] === 0)) rows.pop();
  const data = new Uint8Array(rows.length * Math.max(0, width) * 4);
  rows.forEach((row, y) => row.forEach((pixel, x) => data.set(pixel, (y * width + x) * 4)));
  return { width: Math.max(0, width), height: rows.length, data };
}

/**
 * `text` with every preview escape svc writes removed: what is left must hold no ESC at all,
 * or something other than svc's own pixels reached the terminal.
 */
export function withoutPreviewEscapes(text: string): string {
  return text
    .replace(KITTY, '')
    .replace(ITERM, '')
    .replace(/\x1bP[\d;]*q[^\x1b]*\x1b\\/g, '')
    .replace(/\x1b\[[\d;]*m/g, '');
}

/** The mean colour of `pixels` (alpha-weighted), to compare a preview with its file. */
export function meanColour(pixels: Pixels): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  let weight = 0;
  for (let i = 0; i < pixels.data.length; i += 4) {
    const a = pixels.data[i + 3]!;
    r += pixels.data[i]! * a;
    g += pixels.data[i + 1]! * a;
    b += pixels.data[i + 2]! * a;
    weight += a;
  }
  return weight === 0 ? [0, 0, 0] : [r / weight, g / weight, b / weight];
}
