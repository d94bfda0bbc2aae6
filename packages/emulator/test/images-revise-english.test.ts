/**
 * Revised prompts read as good English, over many prompts (subjects, settings, times, media) and
 * negative prompts. The conventions checked: one sentence, capitalised, ending in exactly one full
 * stop; comma-separated details without empty pieces; negations joined by `or` ("with no people
 * or text", never "with no people and text"); `a`/`an` agreeing with the next word; no word
 * doubled next to itself; no content word of the rewrite used twice or repeating the user's;
 * no style added to a prompt that names one; no colour praised in a monochrome medium.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planScene } from '../src/extras/scenes/plan.js';
import { revisePrompt } from '../src/extras/scenes/revise.js';

const revise = (prompt: string, seed: number, negative?: string) => revisePrompt(prompt, seed, planScene(prompt, seed, negative), negative);

const SUBJECTS = ['a lighthouse', 'an owl', 'a red fox', 'two cats', 'a castle on a mountain', 'an old windmill', 'a quiet harbour', 'a sailing boat', 'the moon', 'a bright sun', 'a stone bridge', 'flowers', 'a lone tree', 'a deep blue sea', 'dunes', 'a tower', 'a hiker'];
const SETTINGS = ['', ' by a lake', ' in a misty forest', ' on a hill', ' in the desert', ' under a starry sky', ' above the clouds', ' near the sea'];
const TIMES = ['', ' at dusk', ' at night', ' at dawn', ' on a sunny day', ' in the evening', ' at sunset'];
const MEDIA = ['', ', ink drawing', ', watercolor', ', pencil sketch', ', photo', ' in black and white', ', oil painting', ', charcoal'];
const NEGATIVES = [undefined, 'people', 'people, text', 'no people and no text', 'text; watermark, blurry faces', 'cars or trucks', 'people, people', 'without clouds.'];

const prompts = fc.tuple(fc.constantFrom(...SUBJECTS), fc.constantFrom(...SETTINGS), fc.constantFrom(...TIMES), fc.constantFrom(...MEDIA))
  .map(([subject, setting, time, medium]) => `${subject}${setting}${time}${medium}`);

/** Words that may repeat: articles, prepositions, conjunctions (as in revise.ts). */
const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'at', 'to', 'into', 'with', 'as', 'by', 'for', 'from', 'under', 'beneath', 'over', 'against', 'set', 'its', 'no', 'free', 'avoiding', 'is', 'are', 'it', 'their', 'beside']);
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The revised prompt without the user's words at its start and the negative clause at its end. */
function rewriteOf(revised: string, prompt: string): string {
  const start = prompt.charAt(0).toUpperCase() + prompt.slice(1);
  expect(revised.startsWith(`${start}, `)).toBe(true);
  return revised.slice(start.length + 2).replace(/, (with no|free of|avoiding) [^,]*(, [^,]*)*\.$/u, '.');
}

describe('revised prompts read as English', () => {
  it('for any prompt, seed and negative prompt', () => {
    fc.assert(fc.property(prompts, fc.integer(), fc.constantFrom(...NEGATIVES), (prompt, seed, negative) => {
      const revised = revise(prompt, seed, negative);
      // One sentence: a capital, one full stop at the end, no empty or doubled separators.
      expect(revised).toMatch(/^[A-Z]/u);
      expect(revised).toMatch(/[^.!?,;:]\.$/u);
      expect(revised).not.toMatch(/ ,|,,|, \.|\s{2}|,\S/u);
      // Negations: `with no` / `without` join their items with `or`.
      expect(revised).not.toMatch(/\b(with no|without) [^,.]* and /u);
      // Articles agree with the next word (the vocabulary has no silent h or `a unicorn` cases).
      expect(revised).not.toMatch(/\ba [aeiou]/iu);
      expect(revised).not.toMatch(/\ban [^aeiou\s]/iu);
      // No word next to itself; no content word of the rewrite twice, nor one of the user's.
      expect(revised).not.toMatch(/\b(\p{L}+) \1\b/iu);
      const added = wordsOf(rewriteOf(revised, prompt)).filter((word) => !FUNCTION_WORDS.has(word));
      expect(added.filter((word, i) => added.indexOf(word) !== i)).toEqual([]);
      const own = new Set(wordsOf(prompt).filter((word) => !FUNCTION_WORDS.has(word)));
      expect(added.filter((word) => own.has(word))).toEqual([]);
    }), { numRuns: 600 });
  });

  it('adds no colour to a monochrome medium and no second style to a styled prompt', () => {
    fc.assert(fc.property(fc.constantFrom(...SUBJECTS), fc.constantFrom(', ink drawing', ', pencil sketch', ', charcoal', ' in black and white'), fc.integer(), (subject, medium, seed) => {
      const prompt = `${subject}${medium}`;
      const rewrite = rewriteOf(revise(prompt, seed), prompt);
      expect(rewrite).not.toMatch(/colou?r|palette/u);
      expect(rewrite).not.toMatch(/\bas (a|an|cinematic) /u);
    }), { numRuns: 200 });
  });

  it.each([
    ['people, text', /, (with no people or text|free of people and text)\.$/u],
    ['no people and no text', /, (with no people or text|free of people and text)\.$/u],
    ['cars or trucks', /, (with no cars or trucks|free of cars and trucks)\.$/u],
    ['people, people', /, (with no|free of) people\.$/u],
    ['text; watermark, blurry faces', /, avoiding text, watermark and blurry faces\.$/u],
  ])('turns the negative prompt %j into a clause', (negative, pattern) => {
    for (let seed = 0; seed < 10; seed += 1) expect(revise('a harbour', seed, negative)).toMatch(pattern);
  });

  it('drops a question mark at the end of the prompt instead of following it with a comma', () => {
    expect(revise('a cat?', 1)).toMatch(/^A cat, /u);
  });

  it('does not name the moon again when the prompt already does', () => {
    for (let seed = 0; seed < 20; seed += 1) expect(wordsOf(revise('the moon over a lake', seed)).filter((w) => w === 'moon')).toHaveLength(1);
  });
});
