/**
 * Prompt enhancement: the `revised_prompt` the service returns (service-api.md 1 and 4.2). It reads
 * like a real model's rewrite: the user's words first and unchanged, then lighting, setting,
 * style, composition and finish, and what the negative prompt rules out.
 *
 * The setting describes the drawn scene (the {@link ScenePlan}): its sky, sun or moon, ridges and
 * water, so the revised prompt and the picture agree. The other details are picked by a generator
 * seeded with the prompt, the seed and the negative prompt, so the same request gets the same text.
 */
import { createRng, seedFromText, type Rng } from '../random.js';
import { wordsOf, type ScenePlan, type TimeOfDay } from './plan.js';

const LIGHTING: Record<TimeOfDay, readonly string[]> = {
  day: ['in bright natural daylight', 'in crisp midday light with clean shadows', 'in soft, diffuse daylight'],
  sunset: ['in warm golden-hour light with long shadows', 'in the glowing light of late evening', 'in rich dusk light with deep, warm shadows'],
  night: ['in cool night light with deep blue shadows', 'in the hush of a clear night', 'in soft night light with a faint glow on the horizon'],
  dawn: ['in soft pastel morning light', 'in hazy first light with gentle contrast', 'in the cool, clear light of early morning'],
};

const BACKDROPS: Record<ScenePlan['terrain'], readonly string[]> = {
  mountains: ['layered mountain ridges fading into haze', 'jagged mountain silhouettes receding into the distance'],
  hills: ['rolling hills fading into the distance', 'soft layers of hills receding into haze'],
  dunes: ['sweeping sand dunes fading into haze', 'layered dunes rolling into the distance'],
};

const WATER = ['reflected in calm water', 'mirrored in still water'];

const STYLES = [
  'as a detailed digital matte painting',
  'as a soft gouache illustration',
  'as cinematic concept art',
  'as a muted watercolour painting',
  'as a clean flat-colour illustration',
];

/** A prompt that already names a medium or style keeps it: adding another would contradict it. */
const STYLE_WORDS = new Set([
  'photo', 'photograph', 'photography', 'photorealistic', 'realistic', 'painting', 'painted', 'watercolor',
  'watercolour', 'gouache', 'illustration', 'illustrated', 'sketch', 'drawing', 'drawn', 'render', 'rendered',
  '3d', 'cgi', 'anime', 'manga', 'cartoon', 'pixel', 'vector', 'oil', 'pencil', 'charcoal', 'ink', 'art',
  'artwork', 'style', 'poster', 'comic',
]);

const COMPOSITIONS = [
  'balanced rule-of-thirds composition',
  'centred composition with generous negative space',
  'wide composition with a strong sense of depth',
  'low vantage point with a clear focal point',
];

const FINISHES = ['rich colour and fine detail', 'high detail with subtle texture', 'sharp focus and a harmonious palette', 'crisp edges and smooth gradients'];

/** `a` or `an`, by the sound of the first letter (good enough for the palette names used here). */
const article = (word: string): string => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** `a`, `a and b`, `a, b and c`. */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The user's prompt as the start of a sentence: spaces collapsed, end punctuation dropped, capitalised. */
function core(prompt: string): string {
  const collapsed = prompt.trim().replace(/\s+/g, ' ');
  const text = collapsed.replace(/[\s.!,;:]+$/u, '') || collapsed;
  const first = text.charAt(0).toUpperCase();
  // Only a one-for-one change: `ß` would become `SS` and no longer be the user's word.
  return first.length === 1 ? first + text.slice(1) : text;
}

/** The sky: palette, then the sun or moon and the stars the scene shows. */
function sky(plan: ScenePlan): string {
  const extras: string[] = [];
  if (plan.disc?.kind === 'sun') extras.push(plan.time === 'day' ? 'a bright sun' : 'the sun low on the horizon');
  if (plan.disc?.kind === 'moon') extras.push(plan.disc.shadow === 0 ? 'a full moon' : 'a crescent moon');
  if (plan.stars > 0) extras.push('scattered stars');
  const head = `under ${article(plan.palette)} ${plan.palette} sky`;
  return extras.length > 0 ? `${head} with ${listOf(extras)}` : head;
}

/**
 * The negative prompt as a clause: its comma-separated items, with any `no` / `without` the user
 * already wrote removed. Single words read well after `with no`; longer items (`blurry text`) get
 * `avoiding`, which fits any noun phrase.
 */
function exclusions(negativePrompt: string | undefined, rng: Rng): string | undefined {
  const items = (negativePrompt ?? '')
    .split(/[,;\n]+/)
    .map((item) => item.trim().replace(/^(?:no|without|not)\s+/i, '').replace(/[.!]+$/u, '').trim())
    .filter((item) => item !== '');
  const lead = rng.pick(['with no', 'free of']);
  if (items.length === 0) return undefined;
  return items.every((item) => !/\s/.test(item)) ? `${lead} ${listOf(items)}` : `avoiding ${listOf(items)}`;
}

/**
 * The enhanced prompt for `prompt` as drawn in `plan`. Always longer than the prompt and starting
 * with its words; deterministic for the same prompt, seed and negative prompt.
 */
export function revisePrompt(prompt: string, seed: number, plan: ScenePlan, negativePrompt?: string): string {
  const rng = createRng(seedFromText(JSON.stringify(['revise', prompt.trim(), seed, negativePrompt ?? ''])));
  // Every pick is made whether or not it is used, so one choice never shifts the others.
  const lighting = rng.pick(LIGHTING[plan.time]);
  const backdrop = rng.pick(BACKDROPS[plan.terrain]);
  const water = rng.pick(WATER);
  const style = rng.pick(STYLES);
  const composition = rng.pick(COMPOSITIONS);
  const finish = rng.pick(FINISHES);
  const hasStyle = wordsOf(prompt).some((word) => STYLE_WORDS.has(word));
  const parts = [
    core(prompt),
    lighting,
    sky(plan),
    `set against ${backdrop}`,
    ...(plan.water ? [water] : []),
    ...(hasStyle ? [] : [style]),
    composition,
    finish,
  ];
  const negative = exclusions(negativePrompt, rng);
  if (negative !== undefined) parts.push(negative);
  return `${parts.join(', ')}.`;
}
