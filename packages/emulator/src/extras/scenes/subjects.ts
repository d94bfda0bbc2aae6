/**
 * The subjects a scene shows: a small vocabulary of common things (lighthouse, cat, castle...)
 * found in the prompt's words, each placed in the scene before a pixel is drawn.
 *
 * Placement is in fractions of the frame's width from its centre (x) and in image heights (size),
 * so every aspect ratio shows the same arrangement; the drawing then fits each subject to the
 * frame it gets. A generator of its own (seeded with the prompt and the seed) decides positions,
 * so adding subjects changes nothing else in the plan. The negative prompt takes a subject out.
 */
import { createRng, seedFromText } from '../random.js';
import { bridge, boat, car, castle, house, lighthouse, tower, windmill, type ShapeOptions, type Silhouette } from './silhouettes-built.js';
import { bird, cat, dog, fish, flower, fox, mountain, owl, person, tree } from './silhouettes-nature.js';

/** Where a subject goes: on the land, on the water, in the sky, behind the land, or across the frame. */
export type Layer = 'ground' | 'water' | 'sky' | 'backdrop' | 'span';

interface Kind {
  /** Words that name it; the first is its name. Plurals draw a group. */
  words: readonly string[];
  plurals: readonly string[];
  layer: Layer;
  /** Height in image heights for the main subject. */
  size: number;
  /** Drawn in profile facing right: turned to face into the frame. */
  profile?: boolean;
  shape: (options: ShapeOptions) => Silhouette;
}

/** The vocabulary (the sun and the moon are the scene's disc: see plan.ts). */
export const KINDS = {
  lighthouse: { words: ['lighthouse', 'beacon'], plurals: ['lighthouses'], layer: 'ground', size: 0.5, shape: lighthouse },
  castle: { words: ['castle', 'fortress', 'palace', 'citadel'], plurals: ['castles'], layer: 'ground', size: 0.36, shape: castle },
  tower: { words: ['tower', 'spire', 'turret'], plurals: ['towers'], layer: 'ground', size: 0.5, shape: tower },
  windmill: { words: ['windmill', 'mill'], plurals: ['windmills'], layer: 'ground', size: 0.48, shape: windmill },
  house: { words: ['house', 'cottage', 'cabin', 'hut', 'farmhouse', 'home', 'barn'], plurals: ['houses', 'cottages', 'cabins', 'village', 'town'], layer: 'ground', size: 0.28, shape: house },
  bridge: { words: ['bridge', 'viaduct', 'aqueduct'], plurals: ['bridges'], layer: 'span', size: 0.2, shape: bridge },
  car: { words: ['car', 'automobile', 'taxi', 'van'], plurals: ['cars'], layer: 'ground', size: 0.16, profile: true, shape: car },
  boat: { words: ['boat', 'ship', 'sailboat', 'yacht', 'sailing', 'sail'], plurals: ['boats', 'ships', 'sailboats', 'yachts', 'fleet'], layer: 'water', size: 0.28, shape: boat },
  mountain: { words: ['mountain', 'peak', 'summit', 'volcano', 'matterhorn', 'everest', 'fuji'], plurals: [], layer: 'backdrop', size: 0.56, shape: mountain },
  tree: { words: ['tree', 'oak', 'willow', 'maple'], plurals: ['trees', 'forest', 'woods', 'orchard', 'grove'], layer: 'ground', size: 0.42, shape: tree },
  flower: { words: ['flower', 'rose', 'tulip', 'daisy', 'poppy', 'sunflower', 'blossom', 'bloom'], plurals: ['flowers', 'roses', 'tulips', 'daisies', 'poppies', 'sunflowers', 'blossoms', 'bouquet'], layer: 'ground', size: 0.34, shape: flower },
  cat: { words: ['cat', 'kitten', 'kitty', 'tabby'], plurals: ['cats', 'kittens'], layer: 'ground', size: 0.34, shape: cat },
  dog: { words: ['dog', 'puppy', 'hound', 'retriever', 'terrier'], plurals: ['dogs', 'puppies'], layer: 'ground', size: 0.3, profile: true, shape: dog },
  fox: { words: ['fox', 'vixen'], plurals: ['foxes'], layer: 'ground', size: 0.28, profile: true, shape: fox },
  owl: { words: ['owl', 'owlet'], plurals: ['owls'], layer: 'ground', size: 0.36, shape: owl },
  bird: { words: ['bird', 'gull', 'seagull', 'crow', 'eagle', 'hawk', 'swallow', 'raven'], plurals: ['birds', 'gulls', 'seagulls', 'crows', 'flock', 'swallows'], layer: 'sky', size: 0.055, shape: bird },
  fish: { words: ['fish', 'salmon', 'trout', 'carp', 'koi'], plurals: ['fishes'], layer: 'water', size: 0.14, profile: true, shape: fish },
  person: { words: ['person', 'man', 'woman', 'girl', 'boy', 'child', 'figure', 'traveller', 'traveler', 'hiker', 'wanderer', 'stranger', 'knight'], plurals: ['people', 'family', 'crowd', 'figures', 'children', 'travellers', 'travelers', 'hikers'], layer: 'ground', size: 0.3, shape: person },
} satisfies Record<string, Kind>;

/** A subject kind of the vocabulary. */
export type SubjectKind = keyof typeof KINDS;

/** One drawn subject. */
export interface Subject {
  kind: SubjectKind;
  /** Centre, as a fraction of the frame's width from its centre (-0.5 to 0.5). */
  x: number;
  /** For the sky layer: the top of the subject, in image heights from the top. */
  y: number;
  /** Height in image heights, before fitting to the frame. */
  size: number;
  flip: boolean;
  /** Variation within the kind, 0 to 1. */
  variant: number;
  /** Stands on the summit of the scene's mountain (`a castle on a mountain`). */
  perched: boolean;
}

/** At most this many kinds per scene: more would crowd the frame and none would read. */
const MAX_KINDS = 3;

/** Where the land subjects go, main first, as fractions of the width, and their relative sizes. */
const SLOTS = [{ size: 1 }, { size: 0.7 }, { size: 0.55 }];

/** The kinds the words name, in the order they are named, each with whether it was plural. */
export function namedKinds(words: readonly string[]): { kind: SubjectKind; plural: boolean }[] {
  const found: { kind: SubjectKind; plural: boolean }[] = [];
  for (const word of words) {
    for (const [kind, info] of Object.entries(KINDS) as [SubjectKind, Kind][]) {
      const plural = info.plurals.includes(word);
      if ((plural || info.words.includes(word)) && !found.some((f) => f.kind === kind)) found.push({ kind, plural });
    }
  }
  return found;
}

/** True when the negative prompt's words name the kind (singular or plural). */
function banned(kind: SubjectKind, bans: ReadonlySet<string>): boolean {
  const info: Kind = KINDS[kind];
  return [...info.words, ...info.plurals].some((word) => bans.has(word));
}

/**
 * The subjects for a prompt: its named kinds (at most three, the negative prompt's taken out),
 * the first the largest, on a third of the frame or in its centre, the others on the other side
 * and smaller; plurals as a group of three (a flock of four for birds).
 */
export function planSubjects(prompt: string, seed: number, words: readonly string[], bans: ReadonlySet<string>): Subject[] {
  const rng = createRng(seedFromText(JSON.stringify(['subjects', prompt.trim(), seed])));
  const named = namedKinds(words).filter(({ kind }) => !banned(kind, bans)).slice(0, MAX_KINDS);
  const perchWanted = named.some((n) => n.kind === 'mountain') && /\bon\s+(?:top\s+of\s+)?(?:an?\s+|the\s+)?(?:mountain|peak|summit)/iu.test(prompt);
  const subjects: Subject[] = [];
  const mainX = rng.pick([-1 / 6, 1 / 6, -1 / 6, 1 / 6, 0]);
  const side = mainX === 0 ? rng.pick([-1, 1]) : Math.sign(mainX);
  let slot = 0;
  let perched = false;
  for (const { kind, plural } of named) {
    const info: Kind = KINDS[kind];
    const variant = rng.next();
    const flipChoice = rng.next() < 0.5;
    const make = (x: number, size: number, y = 0): Subject => ({
      kind, x, y, size, variant, perched: false,
      // Profiles face into the frame; the others are turned at random.
      flip: info.profile ? x > 0 : flipChoice,
    });
    if (info.layer === 'sky') {
      const count = plural ? 4 : 1;
      for (let i = 0; i < count; i += 1) {
        subjects.push(make(rng.next() * 0.6 - 0.3, info.size * (plural ? 0.6 + rng.next() * 0.5 : 1.5), 0.1 + rng.next() * 0.2));
      }
      continue;
    }
    if (info.layer === 'backdrop' || info.layer === 'span') {
      subjects.push(make(info.layer === 'span' ? 0 : rng.next() * 0.2 - 0.1, info.size));
      continue;
    }
    if (perchWanted && !perched) {
      perched = true;
      subjects.push({ ...make(0, info.size * 0.55), perched: true });
      continue;
    }
    const place = SLOTS[Math.min(slot, SLOTS.length - 1)]!;
    const x = slot === 0 ? mainX : slot === 1 ? -side * 0.28 : side * 0.36;
    slot += 1;
    if (plural) {
      const offsets = [0, 0.11, -0.1];
      offsets.forEach((offset, i) => subjects.push(make(x + offset, info.size * place.size * [1, 0.78, 0.64][i]!)));
    } else {
      subjects.push(make(x, info.size * place.size));
    }
  }
  return subjects;
}
