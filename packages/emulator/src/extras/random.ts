/**
 * Seeded randomness for reproducible replies: a hash of the canonical request feeds mulberry32.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A 32-bit seed from the SHA-256 of `text`. */
export function seedFromText(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}

/** A fresh unpredictable 32-bit seed. */
export function randomSeed(): number {
  return randomBytes(4).readUInt32LE(0);
}

/** A small seeded generator with the helpers the reply builder needs. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * mulberry32 (Tommy Ettinger's public-domain generator): tiny, fast and well spread for 32-bit
 * seeds, which is all a text emulator needs. Not for anything security-related.
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick(items) {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty array');
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    shuffle(items) {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy;
    },
  };
}
