/**
 * The scene an image shows, decided from the prompt, the seed and the negative prompt before a
 * pixel is drawn: time of day, palette, sun or moon, stars, layered ridges, water. Both the drawing
 * (draw.ts) and the revised prompt (revise.ts) read this plan, so the enhanced prompt describes
 * what the picture really shows.
 *
 * Words steer the plan (`night`, `desert`, `lake`...); whatever the words leave open comes from a
 * generator seeded with the prompt and the seed. The negative prompt only takes elements out, and
 * every random draw happens whatever it says, so removing the sun, moon or stars changes nothing
 * else; removing the water redraws only the ridges, which then reach the bottom of the frame.
 *
 * Positions and sizes are in image heights (x measured from the centre, y from the top), so every
 * aspect ratio frames the same scene, only wider or narrower.
 */
import { createRng, seedFromText, type Rng } from '../random.js';
import { mix, type Rgb } from './colour.js';
import { planSubjects, type Subject } from './subjects.js';

/** The light of the scene. */
export type TimeOfDay = 'day' | 'sunset' | 'night' | 'dawn';

/** The shape of the ridges. */
export type Terrain = 'mountains' | 'hills' | 'dunes';

/** One sine octave of a ridge line. */
export interface Wave {
  amp: number;
  freq: number;
  phase: number;
}

/** A silhouette layer: its line is `base` minus a sum of waves shaped by the terrain. */
export interface Ridge {
  base: number;
  waves: readonly Wave[];
  color: Rgb;
}

/** The sun or the moon. `shadow` offsets the dark disc that cuts a crescent (moon only; 0: full). */
export interface Disc {
  kind: 'sun' | 'moon';
  x: number;
  y: number;
  radius: number;
  color: Rgb;
  shadow: number;
}

/** Everything the drawing needs, in image-height units. */
export interface ScenePlan {
  time: TimeOfDay;
  terrain: Terrain;
  /** The palette's name, for the revised prompt (`amber`, `clear blue`...). */
  palette: string;
  skyTop: Rgb;
  skyHorizon: Rgb;
  disc: Disc | undefined;
  /** Stars per megapixel; 0 for none. */
  stars: number;
  /** Feeds the drawing's own small random choices (star positions, ripples). */
  detailSeed: number;
  /** Back to front. */
  ridges: readonly Ridge[];
  /** The waterline (from the top) and the water's tint, when the scene has water. */
  water: { level: number; tint: Rgb } | undefined;
  /** The things the prompt names (subjects.ts), main subject first. */
  subjects: readonly Subject[];
}

interface Palette {
  name: string;
  top: Rgb;
  horizon: Rgb;
  land: Rgb;
  disc: Rgb;
}

const PALETTES: Record<TimeOfDay, readonly Palette[]> = {
  day: [
    { name: 'clear blue', top: [38, 104, 196], horizon: [178, 214, 240], land: [34, 72, 52], disc: [255, 250, 225] },
    { name: 'pale summer', top: [70, 140, 210], horizon: [222, 232, 236], land: [70, 92, 60], disc: [255, 252, 235] },
    { name: 'bright teal', top: [20, 120, 150], horizon: [190, 230, 220], land: [30, 70, 80], disc: [255, 248, 220] },
  ],
  sunset: [
    { name: 'amber', top: [52, 38, 104], horizon: [252, 158, 72], land: [40, 24, 48], disc: [255, 214, 140] },
    { name: 'rose', top: [70, 50, 120], horizon: [246, 128, 120], land: [48, 28, 58], disc: [255, 200, 170] },
    { name: 'crimson', top: [40, 20, 60], horizon: [230, 90, 60], land: [30, 16, 30], disc: [255, 190, 120] },
  ],
  night: [
    { name: 'deep indigo', top: [6, 8, 28], horizon: [34, 44, 92], land: [8, 10, 22], disc: [236, 236, 220] },
    { name: 'violet', top: [14, 6, 30], horizon: [60, 40, 96], land: [14, 10, 26], disc: [240, 232, 240] },
    { name: 'dark teal', top: [2, 14, 24], horizon: [20, 64, 80], land: [4, 16, 22], disc: [226, 240, 236] },
  ],
  dawn: [
    { name: 'peach', top: [96, 128, 196], horizon: [250, 204, 170], land: [64, 70, 96], disc: [255, 236, 200] },
    { name: 'lavender', top: [120, 120, 190], horizon: [246, 210, 220], land: [70, 66, 100], disc: [255, 240, 230] },
    { name: 'misty mint', top: [110, 160, 200], horizon: [230, 240, 200], land: [60, 90, 90], disc: [255, 250, 220] },
  ],
};

/** Words that choose a time of day; the first such word in the prompt wins. */
const TIME_WORDS: Record<TimeOfDay, readonly string[]> = {
  night: ['night', 'midnight', 'moon', 'moonlit', 'moonlight', 'star', 'stars', 'starry', 'starlit', 'galaxy', 'nocturnal'],
  sunset: ['sunset', 'dusk', 'evening', 'twilight', 'golden'],
  dawn: ['dawn', 'sunrise', 'morning', 'daybreak'],
  day: ['day', 'noon', 'midday', 'sunny', 'daylight', 'afternoon'],
};

const TERRAIN_WORDS: Record<Terrain, readonly string[]> = {
  mountains: ['mountain', 'mountains', 'peak', 'peaks', 'alps', 'alpine', 'summit', 'cliff', 'cliffs', 'volcano', 'rocky', 'glacier', 'snow', 'snowy'],
  dunes: ['desert', 'dune', 'dunes', 'sand', 'sandy', 'sahara', 'canyon'],
  hills: ['hill', 'hills', 'meadow', 'meadows', 'field', 'fields', 'countryside', 'valley', 'farm', 'vineyard', 'forest', 'woods', 'garden', 'park'],
};

const WATER_WORDS = ['ocean', 'sea', 'lake', 'river', 'beach', 'coast', 'harbor', 'harbour', 'water', 'bay', 'shore', 'pond', 'island', 'reflection', 'boat', 'ship', 'sailing'];

/** A disc the prompt names (`the moon over a lake`) is its subject, drawn larger. */
const NAMED_DISC_SCALE = 1.6;
const SUN_WORDS = ['sun', 'suns'];
const MOON_WORDS = ['moon', 'moons'];

/** Negative-prompt words that take an element out of the scene. */
const NO_SUN = ['sun', 'sunlight', 'sunshine'];
const NO_MOON = ['moon', 'moonlight'];
const NO_STARS = ['star', 'stars', 'starlight'];
const NO_WATER = ['water', 'ocean', 'sea', 'lake', 'river', 'reflection', 'reflections'];
const NO_MOUNTAINS = ['mountain', 'mountains', 'peak', 'peaks'];

/** How each terrain's ridges look: depth of the dips, and the base frequency range. */
const TERRAIN_SHAPE: Record<Terrain, { amp: number; freq: [number, number] }> = {
  mountains: { amp: 0.17, freq: [3, 6] },
  hills: { amp: 0.07, freq: [2, 4] },
  dunes: { amp: 0.05, freq: [1.5, 3] },
};

/**
 * A ridge line's octaves, each finer and weaker than the last: the usual recipe for a skyline that
 * looks natural. The odd scales keep the octaves from lining up into a visible repeat.
 */
const OCTAVES = [{ weight: 1, scale: 1 }, { weight: 0.45, scale: 2.1 }, { weight: 0.2, scale: 4.7 }];
const OCTAVE_WEIGHTS = OCTAVES.reduce((sum, octave) => sum + octave.weight, 0);

const SAND: Rgb = [168, 112, 60];
const DUNE_SAND_SHARE: Record<TimeOfDay, number> = { day: 0.6, dawn: 0.5, sunset: 0.3, night: 0.15 };

/** The lower-cased words of a text (runs of letters and digits). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The first category one of `words` belongs to, in the order of the words. */
function firstMatch<K extends string>(words: readonly string[], table: Record<K, readonly string[]>): K | undefined {
  const keys = Object.keys(table) as K[];
  for (const word of words) {
    const key = keys.find((k) => table[k].includes(word));
    if (key !== undefined) return key;
  }
  return undefined;
}

/** A colour nudged by up to ±12 per channel, so two prompts with the same palette still differ. */
function jitter(rng: Rng, color: Rgb): Rgb {
  const nudge = (v: number): number => Math.min(255, Math.max(0, v + rng.int(-12, 12)));
  return [nudge(color[0]), nudge(color[1]), nudge(color[2])];
}

const between = (rng: Rng, min: number, max: number): number => min + rng.next() * (max - min);

function planRidges(rng: Rng, terrain: Terrain, land: Rgb, haze: Rgb, waterLevel: number | undefined): Ridge[] {
  const count = waterLevel === undefined ? rng.int(3, 5) : rng.int(2, 4);
  const shape = TERRAIN_SHAPE[terrain];
  const ridges: Ridge[] = [];
  for (let i = 0; i < count; i += 1) {
    const t = count === 1 ? 1 : i / (count - 1); // 0 far, 1 near
    // Far ridges stand higher on the page and are hazier, the way distance looks (aerial perspective).
    const base = waterLevel === undefined ? 0.5 + 0.3 * t : waterLevel - 0.015 - 0.14 * (1 - t);
    const amp = shape.amp * (0.7 + 0.5 * t) * between(rng, 0.8, 1.2);
    const freq = between(rng, shape.freq[0], shape.freq[1]) * (1 + 0.6 * (1 - t));
    const waves = OCTAVES.map((octave) => ({
      amp: (amp * octave.weight) / OCTAVE_WEIGHTS,
      freq: freq * octave.scale,
      phase: rng.next() * Math.PI * 2,
    }));
    ridges.push({ base, waves, color: mix(haze, land, 0.3 + 0.7 * t ** 1.1) });
  }
  return ridges;
}

/**
 * The scene for a prompt and seed. Deterministic: the same prompt, seed and negative prompt always
 * give the same plan; another seed or another prompt gives another one.
 */
export function planScene(prompt: string, seed: number, negativePrompt = ''): ScenePlan {
  const rng = createRng(seedFromText(JSON.stringify(['scene', prompt.trim(), seed])));
  const words = wordsOf(prompt);
  const banned = new Set(wordsOf(negativePrompt));
  const bans = (list: readonly string[]): boolean => list.some((word) => banned.has(word));

  const randomTime = rng.pick<TimeOfDay>(['day', 'day', 'sunset', 'sunset', 'dawn', 'night']);
  // `a sun over the sea` with no time word: a night would have no sun to show.
  const namesSun = words.some((word) => SUN_WORDS.includes(word));
  const time = firstMatch(words, TIME_WORDS) ?? (namesSun && randomTime === 'night' ? 'day' : randomTime);
  const randomTerrain = rng.pick<Terrain>(['mountains', 'mountains', 'hills', 'hills', 'dunes']);
  let terrain = firstMatch(words, TERRAIN_WORDS) ?? randomTerrain;
  if (terrain === 'mountains' && bans(NO_MOUNTAINS)) terrain = 'hills';
  const palette = rng.pick(PALETTES[time]);
  const skyTop = jitter(rng, palette.top);
  const skyHorizon = jitter(rng, palette.horizon);
  const landBase = terrain === 'dunes' ? mix(palette.land, SAND, DUNE_SAND_SHARE[time]) : palette.land;
  const land = jitter(rng, landBase);

  const randomWater = rng.next() < 0.25;
  const wantsWater = randomWater || words.some((word) => WATER_WORDS.includes(word));
  const waterLevel = between(rng, 0.62, 0.74);
  const water = wantsWater && !bans(NO_WATER) ? { level: waterLevel, tint: mix(skyTop, land, 0.35) } : undefined;

  const kind = time === 'night' ? 'moon' : 'sun';
  const low = time === 'sunset' || time === 'dawn';
  // Where a low sun sets: the waterline when the prompt wants water, even if the negative prompt
  // then takes the water away, so that removing it does not move the sun.
  const horizon = wantsWater ? waterLevel : 0.6;
  const disc: Disc = {
    kind,
    // Within ±0.22 heights of the centre, so even a 9:16 frame (±0.28) shows it.
    x: between(rng, -0.22, 0.22),
    y: low ? horizon - between(rng, 0.08, 0.2) : between(rng, 0.1, 0.28),
    radius: kind === 'moon' ? between(rng, 0.03, 0.05) : between(rng, 0.04, 0.07),
    color: palette.disc,
    shadow: 0,
  };
  // Drawn for the sun too, so the draws after it are the same whatever the time of day.
  const phase = rng.next() < 0.4 ? 0 : between(rng, 0.35, 0.7) * (rng.next() < 0.5 ? -1 : 1);
  if (kind === 'moon') disc.shadow = phase;
  if (words.some((word) => (kind === 'moon' ? MOON_WORDS : SUN_WORDS).includes(word))) disc.radius *= NAMED_DISC_SCALE;
  const discBanned = bans(kind === 'moon' ? NO_MOON : NO_SUN);
  const starDensity = rng.int(300, 700);
  const detailSeed = rng.int(0, 0xffffffff);
  const ridges = planRidges(rng, terrain, land, skyHorizon, water?.level);

  return {
    time,
    terrain,
    palette: palette.name,
    skyTop,
    skyHorizon,
    disc: discBanned ? undefined : disc,
    stars: time === 'night' && !bans(NO_STARS) ? starDensity : 0,
    detailSeed,
    ridges,
    water,
    subjects: planSubjects(prompt, seed, words, banned),
  };
}
