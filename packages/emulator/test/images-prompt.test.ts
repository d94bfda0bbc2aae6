/**
 * Prompt enhancement: `revised_prompt` keeps the user's words, adds detail that matches the drawn
 * scene, reflects the negative prompt, and is deterministic for prompt + seed + negative prompt.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planScene } from '../src/extras/scenes/plan.js';
import { revisePrompt } from '../src/extras/scenes/revise.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { generate } from './helpers/http.js';

const revise = (prompt: string, seed: number, negative?: string) => revisePrompt(prompt, seed, planScene(prompt, seed, negative), negative);

/** The words of a text, lower-cased. */
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

describe('revisePrompt', () => {
  it('starts with the prompt, capitalised, and adds a comma-separated rewrite ending in a full stop', () => {
    const revised = revise('a red fox in the snow.', 4);
    expect(revised.startsWith('A red fox in the snow, ')).toBe(true);
    expect(revised.endsWith('.')).toBe(true);
    expect(revised.split(', ').length).toBeGreaterThanOrEqual(5);
  });

  it('keeps every word of any prompt, differs from it and is deterministic', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 120 }).filter((s) => s.trim() !== ''), fc.integer(), (prompt, seed) => {
      const revised = revise(prompt, seed);
      expect(revised).not.toBe(prompt);
      // Spaces are collapsed in the rewrite, so compare with the prompt's collapsed length.
      expect(revised.length).toBeGreaterThan(prompt.trim().replace(/\s+/g, ' ').length + 40);
      const kept = new Set(words(revised));
      for (const word of words(prompt)) expect(kept.has(word)).toBe(true);
      expect(revise(prompt, seed)).toBe(revised);
    }), { numRuns: 300 });
  });

  it('varies with the seed', () => {
    const texts = new Set(Array.from({ length: 10 }, (_, seed) => revise('a castle on a hill', seed)));
    expect(texts.size).toBeGreaterThan(3);
  });

  it('describes what is drawn: night, moon and stars, water, terrain', () => {
    const revised = revise('a starry night over a lake', 2);
    expect(revised).toMatch(/night/);
    expect(revised).toMatch(/(full|crescent) moon/);
    expect(revised).toMatch(/stars/);
    expect(revised).toMatch(/(reflected in calm water|mirrored in still water|doubled on a glassy surface)/);
    // The prompt's own `dunes` is not repeated: the backdrop names them another way.
    expect(revise('dunes in the Sahara desert', 2)).toMatch(/set against (wind-carved sand ridges|sweeping sand dunes|layered dunes)/);
  });

  it('adds no style when the prompt names one', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      expect(revise('a watercolor of a harbour', seed)).not.toMatch(/painting|illustration|concept art/);
      expect(revise('a photo of a harbour', seed)).not.toMatch(/watercolour|gouache|illustration|concept art/);
    }
  });

  it.each([
    ['people', /, (with no|free of) people\.$/],
    ['people, cars', /, (with no people or cars|free of people and cars)\.$/],
    ['blurry text', /, avoiding blurry text\.$/],
    ['no people; blurry text, watermark', /, avoiding people, blurry text and watermark\.$/],
    ['without clouds.', /, (with no|free of) clouds\.$/],
  ])('reflects the negative prompt %j', (negative, pattern) => {
    expect(revise('a mountain village', 1, negative)).toMatch(pattern);
  });

  it('does not mention a sun or moon the negative prompt removed', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      expect(revise('a sunny beach', seed, 'sun')).not.toMatch(/bright sun|sun low/);
      expect(revise('a moonlit bay', seed, 'moon')).not.toMatch(/moon and|moon,/);
    }
  });
});

describe('revised_prompt over HTTP', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(() => emu.close());

  const revisedOf = async (body: Record<string, unknown>) => {
    const answer = await generate(emu, { output_format: 'jpeg', ...body });
    expect(answer.status).toBe(200);
    return answer.json.data[0].revised_prompt as string;
  };

  it('keeps the key words, differs from the prompt and reflects the negative prompt', async () => {
    const prompt = 'Two owls perched on a mossy branch in a misty forest';
    const revised = await revisedOf({ prompt, seed: 12, negative_prompt: 'people, blurry text' });
    expect(revised).not.toBe(prompt);
    expect(revised.startsWith(prompt)).toBe(true);
    for (const word of ['owls', 'perched', 'mossy', 'branch', 'misty', 'forest']) expect(revised).toContain(word);
    expect(revised).toMatch(/avoiding people and blurry text\.$/);
  });

  it('is the same for the same prompt, seed and negative prompt, whatever the format or ratio', async () => {
    const body = { prompt: 'A tram in the rain', seed: 77, negative_prompt: 'cars' };
    const first = await revisedOf(body);
    expect(await revisedOf({ ...body, output_format: 'png', aspect_ratio: '9:16' })).toBe(first);
    expect(await revisedOf({ ...body, negative_prompt: 'bikes' })).not.toBe(first);
  });
});
