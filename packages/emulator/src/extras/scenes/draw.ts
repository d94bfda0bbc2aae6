/**
 * Draws a {@link ScenePlan} into RGBA pixels: a sky gradient, stars, the sun or moon with its glow,
 * layered ridge silhouettes from back to front, the subjects the prompt names (draw-subjects.ts),
 * and water that mirrors everything above it.
 *
 * Speed matters (about a megapixel per request), so the drawing works on one typed array with
 * plain loops and allocates nothing per pixel. It yields to the event loop between layers so a
 * request in progress does not hold up the emulator's other clients for the whole drawing.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createRng } from '../random.js';
import { drawBackdropSubjects, drawFrontSubjects, drawSkySubjects } from './draw-subjects.js';
import type { Pixels } from '../../core/images/pixels.js';
import type { ScenePlan, Terrain } from './plan.js';

/** A triangle wave of period 2π from 0 to 1: straight slopes, like scree. */
function triangle(s: number): number {
  const t = (s / Math.PI) % 2;
  return Math.abs((t < 0 ? t + 2 : t) - 1);
}

/**
 * Height of a ridge line at phase `s` for one octave, from 0 (the base) to 1 (a full wave above
 * it). Octave 0 gives the big shapes, the later ones the detail on top.
 */
function ridgeShape(terrain: Terrain, octave: number, s: number): number {
  switch (terrain) {
    case 'mountains':
      // 1 - |sin| has cusps at its maxima: sharp peaks over rounded valleys. The detail is
      // triangular, since round bumps on a mountain read as clouds.
      return octave === 0 ? 1 - Math.abs(Math.sin(s)) : triangle(s);
    case 'hills':
      return 0.5 + 0.5 * Math.sin(s);
    case 'dunes':
      // The second harmonic skews each wave: a long windward slope and a steep lee side.
      return 0.5 + 0.4 * Math.sin(s) + 0.1 * Math.sin(2 * s);
  }
}

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Blends pixel `i` towards the colour `r, g, b` by `t` (0 keeps it). */
function blend(data: Uint8ClampedArray, i: number, r: number, g: number, b: number, t: number): void {
  data[i] = data[i]! + (r - data[i]!) * t;
  data[i + 1] = data[i + 1]! + (g - data[i + 1]!) * t;
  data[i + 2] = data[i + 2]! + (b - data[i + 2]!) * t;
}

/** The four neighbours a bright star spills into. */
const CROSS = [[1, 0], [-1, 0], [0, 1], [0, -1]] as const;

/** Vertical gradient from the top colour to the horizon colour, reached at `horizon` heights. */
function drawSky(p: Pixels, plan: ScenePlan): void {
  const { width, height, data } = p;
  const horizonPx = (plan.water?.level ?? 0.75) * height;
  // Signed words: with alpha 255 in the top byte a pixel is above 2^31 as an unsigned number, and
  // V8 fills a typed array element by element when the value does not fit a small integer, many
  // times slower than a fill of small ones.
  const words = new Int32Array(data.buffer, data.byteOffset, width * height);
  const packed = new Uint8ClampedArray(4);
  const packedWord = new Int32Array(packed.buffer);
  for (let y = 0; y < height; y += 1) {
    // A slightly eased ramp: the colour changes faster near the horizon, as a real sky's does.
    const t = clamp01((y + 0.5) / horizonPx) ** 1.6;
    packed[0] = plan.skyTop[0] + (plan.skyHorizon[0] - plan.skyTop[0]) * t;
    packed[1] = plan.skyTop[1] + (plan.skyHorizon[1] - plan.skyTop[1]) * t;
    packed[2] = plan.skyTop[2] + (plan.skyHorizon[2] - plan.skyTop[2]) * t;
    packed[3] = 255;
    // One 32-bit fill per row; packing through the byte view keeps it right on any endianness.
    words.fill(packedWord[0]!, y * width, (y + 1) * width);
  }
}

function drawStars(p: Pixels, plan: ScenePlan): void {
  if (plan.stars === 0) return;
  const { width, height, data } = p;
  const rng = createRng(plan.detailSeed);
  const count = Math.round((plan.stars * width * height) / 1e6);
  const bottom = Math.floor((plan.water?.level ?? 0.6) * height * 0.9);
  for (let n = 0; n < count; n += 1) {
    const x = rng.int(1, width - 2);
    const y = rng.int(1, bottom);
    // Fainter towards the horizon, where the sky is brighter.
    const brightness = (0.35 + 0.65 * rng.next()) * (1 - 0.6 * (y / bottom));
    blend(data, (y * width + x) * 4, 255, 255, 240, brightness);
    if (brightness > 0.7) {
      for (const [dx, dy] of CROSS) blend(data, ((y + dy) * width + x + dx) * 4, 255, 255, 240, brightness * 0.4);
    }
  }
}

function drawDisc(p: Pixels, plan: ScenePlan): void {
  const disc = plan.disc;
  if (disc === undefined) return;
  const { width, height, data } = p;
  const cx = width / 2 + disc.x * height;
  const cy = disc.y * height;
  const r = disc.radius * height;
  const glowR = r * (disc.kind === 'sun' ? 4.5 : 2.5);
  const glowStrength = disc.kind === 'sun' ? 0.55 : 0.22;
  const [cr, cg, cb] = disc.color;
  // The moon's dark side is a second disc shifted sideways; what it covers stays sky.
  const shadowX = cx + disc.shadow * r * 1.3;
  const x0 = Math.max(0, Math.floor(cx - glowR));
  const x1 = Math.min(width - 1, Math.ceil(cx + glowR));
  const y0 = Math.max(0, Math.floor(cy - glowR));
  const y1 = Math.min(height - 1, Math.ceil(cy + glowR));
  for (let y = y0; y <= y1; y += 1) {
    const dy = y + 0.5 - cy;
    for (let x = x0; x <= x1; x += 1) {
      const dx = x + 0.5 - cx;
      const d = Math.sqrt(dx * dx + dy * dy);
      if (d >= glowR) continue;
      const glow = (1 - d / glowR) ** 2 * glowStrength;
      // Coverage of the pixel by the disc, with a one-pixel soft edge instead of jaggies.
      let lit = clamp01(r + 0.5 - d);
      if (disc.shadow !== 0 && lit > 0) {
        const sx = x + 0.5 - shadowX;
        lit *= 1 - clamp01(r + 0.5 - Math.sqrt(sx * sx + dy * dy));
      }
      blend(data, (y * width + x) * 4, cr, cg, cb, Math.max(glow, lit));
    }
  }
}

/** One ridge, filled from its line down to the waterline (or the bottom), darker lower down. */
function drawRidge(p: Pixels, plan: ScenePlan, index: number, line: Float64Array): void {
  const { width, height, data } = p;
  const ridge = plan.ridges[index]!;
  const bottom = plan.water === undefined ? height : Math.round(plan.water.level * height);
  const fade = 0.35 * height;
  const [r, g, b] = ridge.color;
  for (let x = 0; x < width; x += 1) {
    const worldX = (x + 0.5 - width / 2) / height;
    let rise = 0;
    for (let octave = 0; octave < ridge.waves.length; octave += 1) {
      const wave = ridge.waves[octave]!;
      rise += wave.amp * ridgeShape(plan.terrain, octave, wave.freq * worldX + wave.phase);
    }
    line[x] = (ridge.base - rise) * height;
  }
  for (let x = 0; x < width; x += 1) {
    const top = line[x]!;
    const first = Math.max(0, Math.floor(top));
    for (let y = first; y < bottom; y += 1) {
      const shade = 1 - 0.3 * clamp01((y - top) / fade);
      const i = (y * width + x) * 4;
      if (y === first) {
        // The top pixel is only partly covered by the ridge: blend by the covered share.
        const cover = clamp01(y + 1 - top);
        blend(data, i, r * shade, g * shade, b * shade, cover);
      } else {
        data[i] = r * shade;
        data[i + 1] = g * shade;
        data[i + 2] = b * shade;
      }
    }
  }
}

/** Mirrors the rows above the waterline into the water, rippled, tinted and darker with depth. */
function drawWater(p: Pixels, plan: ScenePlan): void {
  const water = plan.water;
  if (water === undefined) return;
  const { width, height, data } = p;
  const level = Math.round(water.level * height);
  const rng = createRng(plan.detailSeed ^ 0x5bd1e995);
  const phaseA = rng.next() * Math.PI * 2;
  const phaseB = rng.next() * Math.PI * 2;
  const [tr, tg, tb] = water.tint;
  for (let y = level; y < height; y += 1) {
    const depth = (y - level) / Math.max(1, height - level);
    const source = Math.max(0, level - 1 - (y - level));
    // Two sines of different periods make the ripples look irregular; they widen with depth.
    const shift = Math.round(Math.sin(y * 0.35 + phaseA) * (1 + 5 * depth) + Math.sin(y * 0.11 + phaseB) * 3 * depth);
    const mixTint = 0.25 + 0.35 * depth;
    const dim = 0.88 - 0.18 * depth;
    for (let x = 0; x < width; x += 1) {
      const sx = Math.min(width - 1, Math.max(0, x + shift));
      const from = (source * width + sx) * 4;
      const i = (y * width + x) * 4;
      data[i] = (data[from]! + (tr - data[from]!) * mixTint) * dim;
      data[i + 1] = (data[from + 1]! + (tg - data[from + 1]!) * mixTint) * dim;
      data[i + 2] = (data[from + 2]! + (tb - data[from + 2]!) * mixTint) * dim;
    }
  }
}

/**
 * Draws `plan` at `width` × `height`. The same plan and size always give the same pixels, which is
 * what makes a seeded request return identical bytes in every format.
 */
export async function drawScene(plan: ScenePlan, width: number, height: number): Promise<Pixels> {
  const pixels: Pixels = { width, height, data: new Uint8ClampedArray(width * height * 4) };
  drawSky(pixels, plan);
  drawStars(pixels, plan);
  drawDisc(pixels, plan);
  drawSkySubjects(pixels, plan);
  drawBackdropSubjects(pixels, plan);
  await nextTurn();
  const line = new Float64Array(width);
  for (let index = 0; index < plan.ridges.length; index += 1) {
    drawRidge(pixels, plan, index, line);
    await nextTurn();
  }
  // `line` now holds the nearest ridge, which the subjects in front stand on.
  drawFrontSubjects(pixels, plan, line);
  // Last, so the water mirrors the subjects too.
  drawWater(pixels, plan);
  return pixels;
}
