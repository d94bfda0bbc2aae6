/**
 * Prompt enhancement: the `revised_prompt` the service returns (docs/service-api.md, "Images"). It
 * reads like a real model's rewrite: the user's words first and unchanged, then lighting, setting,
 * style, composition and finish, and what the negative prompt rules out.
 *
 * The setting describes the drawn scene (the {@link ScenePlan}): its sky, sun or moon, ridges and
 * water, so the revised prompt and the picture agree. The other details are picked by a generator
 * seeded with the prompt, the seed and the negative prompt, so the same request gets the same text.
 */
import { createRng, seedFromText, type Rng } from '../random.js';
import { wordsOf, type ScenePlan, type TimeOfDay } from './plan.js';

const LIGHTING: Record<TimeOfDay, readonly string[]> = {
  day: ['in bright natural daylight', 'in crisp midday light with clean shadows', 'in soft, diffuse daylight', 'on a clear, sunlit afternoon'],
  sunset: ['in warm golden-hour light with long shadows', 'in the glowing light of late evening', 'in rich dusk light with warm shadows', 'as the evening glow fades'],
  night: ['in cool night light with blue shadows', 'in the hush of a clear night', 'in soft moonlit darkness with a faint glow on the horizon', 'in deep, still darkness'],
  dawn: ['in soft pastel morning light', 'in hazy first light with gentle contrast', 'in the cool, clear light of early morning', 'as the day breaks softly'],
};

const BACKDROPS: Record<ScenePlan['terrain'], readonly string[]> = {
  mountains: ['layered mountain ridges fading into haze', 'jagged mountain silhouettes receding into the distance', 'rows of rugged peaks'],
  hills: ['rolling hills fading into the distance', 'soft layers of hills receding into haze', 'gentle green slopes'],
  dunes: ['sweeping sand dunes fading into haze', 'layered dunes rolling into the distance', 'wind-carved sand ridges'],
};

const WATER = ['reflected in calm water', 'mirrored in still water', 'doubled on a glassy surface'];

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
  'artwork', 'style', 'poster', 'comic', 'engraving', 'etching', 'lithograph', 'woodcut', 'linocut',
]);

/** Media without colour: a finish that praises colour would contradict them. */
const MONOCHROME_WORDS = new Set(['ink', 'pencil', 'charcoal', 'graphite', 'monochrome', 'sketch', 'grayscale', 'greyscale', 'engraving', 'etching', 'woodcut', 'linocut', 'noir']);

/** Composition by where the main subject stands (subjects.ts): in the centre, or on a third. */
const CENTRED = ['centred composition with generous negative space', 'symmetrical framing around a clear focal point'];
const ON_A_THIRD = ['balanced rule-of-thirds composition', 'off-centre framing with open space beside the subject'];
const OPEN = ['wide composition with a strong sense of depth', 'low viewpoint with a clear focal point'];

const FINISHES = ['rich colour and fine detail', 'high detail with subtle texture', 'sharp focus and a harmonious palette', 'crisp edges and smooth gradients'];
const MONOCHROME_FINISHES = ['fine line work and careful shading', 'high detail with subtle texture', 'crisp edges and delicate tonal gradation'];

/**
 * Words that may repeat in a sentence without reading as a repetition: articles, prepositions,
 * conjunctions. Every other word of the rewrite is used once, and never one the user wrote.
 */
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'at', 'to', 'into', 'with', 'as', 'by', 'for', 'from', 'under',
  'beneath', 'over', 'against', 'set', 'its', 'no', 'free', 'avoiding', 'is', 'are', 'it', 'their', 'beside',
]);

/** `a` or `an`, by the sound of the first letter (good enough for the words used here). */
const article = (word: string): string => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** `a`, `a and b`, `a, b and c` (or `or` for a negation: `no people or text`). */
function listOf(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/** The user's prompt as the start of a sentence: spaces collapsed, end punctuation dropped, capitalised. */
function core(prompt: string): string {
  const collapsed = prompt.trim().replace(/\s+/g, ' ');
  const text = collapsed.replace(/[\s.!?,;:]+$/u, '') || collapsed;
  const first = text.charAt(0).toUpperCase();
  // Only a one-for-one change: `ß` would become `SS` and no longer be the user's word.
  return first.length === 1 ? first + text.slice(1) : text;
}

/**
 * Ways to say the sky: palette, then the sun or moon and the stars the scene shows, leaving out
 * a sun or moon the prompt already names. Several phrasings, so one that repeats none of the
 * prompt's words can be chosen.
 */
function skies(plan: ScenePlan, promptWords: ReadonlySet<string>): string[] {
  const extras: string[] = [];
  if (plan.disc?.kind === 'sun' && !promptWords.has('sun')) extras.push(plan.time === 'day' ? 'a bright sun' : 'the sun low on the horizon');
  if (plan.disc?.kind === 'moon' && !promptWords.has('moon')) extras.push(plan.disc.shadow === 0 ? 'a full moon' : 'a crescent moon');
  if (plan.stars > 0) extras.push('scattered stars');
  const tail = extras.length > 0 ? ` with ${listOf(extras)}` : '';
  return [
    `under ${article(plan.palette)} ${plan.palette} sky${tail}`,
    `beneath ${plan.palette} skies${tail}`,
    ...(extras.length > 0 ? [`with ${listOf(extras)} overhead`] : []),
    `in ${plan.palette} tones`,
  ];
}

/**
 * The negative prompt as a clause: its items (split at commas, semicolons, `and`, `or`), with any
 * `no` / `without` the user already wrote removed and repeats dropped. Single words read well
 * after `with no` (joined by `or`: "with no people or text") or `free of`; longer items
 * (`blurry text`) get `avoiding`, which fits any noun phrase.
 */
function exclusions(negativePrompt: string | undefined, rng: Rng): string | undefined {
  const seen = new Set<string>();
  const items = (negativePrompt ?? '')
    .split(/[,;\n]+|\s+(?:and|or|nor)\s+/iu)
    .map((item) => item.trim().replace(/^(?:(?:no|without|not|any|and|or)\s+)+/iu, '').replace(/[.!?]+$/u, '').trim())
    .filter((item) => item !== '' && !seen.has(item.toLowerCase()) && seen.add(item.toLowerCase()));
  const lead = rng.pick(['with no', 'free of']);
  if (items.length === 0) return undefined;
  if (items.some((item) => /\s/.test(item))) return `avoiding ${listOf(items)}`;
  return lead === 'with no' ? `with no ${listOf(items, 'or')}` : `free of ${listOf(items)}`;
}

/** The content words of a phrase: those that would read as a repetition if used twice. */
function contentWords(text: string): string[] {
  return wordsOf(text).filter((word) => !FUNCTION_WORDS.has(word));
}

/**
 * The enhanced prompt for `prompt` as drawn in `plan`. Always longer than the prompt and starting
 * with its words; deterministic for the same prompt, seed and negative prompt. It reads as one
 * English sentence: comma-separated details, each content word used once and none of the user's
 * repeated, no style added to a prompt that names one, no colour praised in a monochrome medium.
 */
export function revisePrompt(prompt: string, seed: number, plan: ScenePlan, negativePrompt?: string): string {
  const rng = createRng(seedFromText(JSON.stringify(['revise', prompt.trim(), seed, negativePrompt ?? ''])));
  const promptWords = new Set(wordsOf(prompt));
  const monochrome = [...promptWords].some((word) => MONOCHROME_WORDS.has(word)) || /\bblack and white\b/iu.test(prompt);
  // Every added style is a coloured medium, so a monochrome prompt gets none either.
  const hasStyle = monochrome || [...promptWords].some((word) => STYLE_WORDS.has(word));
  const main = plan.subjects.find((subject) => !subject.perched);
  const compositions = main === undefined ? OPEN : main.x === 0 ? CENTRED : ON_A_THIRD;
  // Every list is shuffled whether or not it is used, so one choice never shifts the others.
  const options = {
    lighting: rng.shuffle(LIGHTING[plan.time]),
    sky: skies(plan, promptWords),
    backdrop: rng.shuffle(BACKDROPS[plan.terrain]).map((backdrop) => `set against ${backdrop}`),
    water: plan.water ? rng.shuffle(WATER) : [],
    style: hasStyle ? [] : rng.shuffle(STYLES),
    composition: rng.shuffle(compositions),
    finish: rng.shuffle(monochrome ? MONOCHROME_FINISHES : FINISHES),
  };
  if (!plan.water) rng.shuffle(WATER);
  if (hasStyle) rng.shuffle(STYLES);
  const used = new Set(promptWords);
  const parts = [core(prompt)];
  for (const candidates of Object.values(options)) {
    // The first phrasing that repeats no word already in the sentence; none if every one would.
    const chosen = candidates.find((candidate) => {
      const words = contentWords(candidate);
      return new Set(words).size === words.length && words.every((word) => !used.has(word));
    });
    if (chosen === undefined) continue;
    parts.push(chosen);
    for (const word of contentWords(chosen)) used.add(word);
  }
  const negative = exclusions(negativePrompt, rng);
  if (negative !== undefined) parts.push(negative);
  return `${parts.join(', ')}.`;
}
