/**
 * The subjects a prompt names are planned and drawn: found in the words (singular or plural),
 * taken out by the negative prompt, placed deterministically, and drawn inside every aspect
 * ratio's frame at a size proportional to the image.
 */
import { describe, expect, it } from 'vitest';
import { drawScene } from '../src/extras/scenes/draw.js';
import { planScene, type ScenePlan } from '../src/extras/scenes/plan.js';
import { IMAGE_SIZES } from '../src/core/images/sizes.js';
import { KINDS, namedKinds, type SubjectKind } from '../src/extras/scenes/subjects.js';

const ALL_KINDS = Object.keys(KINDS) as SubjectKind[];

/** The box of pixels that differ between two drawings, above row `rows` (the reflection's), or undefined. */
function changedBox(a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, rows: number) {
  let [x0, y0, x1, y1] = [width, rows, -1, -1];
  for (let y = 0; y < rows; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) < 6) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1, y1 };
}

/** Draws the plan with and without its subjects, at a quarter of the ratio's size. */
async function subjectBox(plan: ScenePlan, ratio: keyof typeof IMAGE_SIZES) {
  const width = IMAGE_SIZES[ratio].width / 4;
  const height = IMAGE_SIZES[ratio].height / 4;
  const withSubjects = await drawScene(plan, width, height);
  const without = await drawScene({ ...plan, subjects: [] }, width, height);
  const above = plan.water === undefined ? height : Math.round(plan.water.level * height);
  return { box: changedBox(withSubjects.data, without.data, width, above), width, height };
}

describe('planning subjects', () => {
  it.each(ALL_KINDS)('finds %s by its name, for every seed', (kind) => {
    const word = KINDS[kind].words[0];
    for (let seed = 0; seed < 10; seed += 1) {
      expect(planScene(`a ${word} in the evening`, seed).subjects.map((s) => s.kind)).toEqual([kind]);
    }
  });

  it('draws a plural as a group, in the order the prompt names things, three kinds at most', () => {
    expect(planScene('three cats', 1).subjects.map((s) => s.kind)).toEqual(['cat', 'cat', 'cat']);
    expect(planScene('birds over the sea', 1).subjects.filter((s) => s.kind === 'bird')).toHaveLength(4);
    expect(namedKinds(['dog', 'and', 'a', 'fox', 'cat', 'owl']).map((k) => k.kind)).toEqual(['dog', 'fox', 'cat', 'owl']);
    expect(new Set(planScene('a dog, a fox, a cat and an owl', 1).subjects.map((s) => s.kind))).toEqual(new Set(['dog', 'fox', 'cat']));
  });

  it('leaves out a subject the negative prompt names, and changes nothing else', () => {
    for (let seed = 0; seed < 10; seed += 1) {
      const plan = planScene('a lighthouse and a boat at dusk', seed);
      const without = planScene('a lighthouse and a boat at dusk', seed, 'boats');
      expect(without.subjects.map((s) => s.kind)).toEqual(['lighthouse']);
      // A boat on the water: the negative prompt takes the boat, never the lake.
      expect({ ...without, subjects: plan.subjects }).toEqual(plan);
      expect(planScene('two people on a beach', seed, 'people').subjects).toEqual([]);
    }
  });

  it('puts something `on a mountain` on its summit', () => {
    const subjects = planScene('a castle on a mountain', 3).subjects;
    expect(subjects.find((s) => s.kind === 'castle')?.perched).toBe(true);
    expect(planScene('a castle near a mountain', 3).subjects.find((s) => s.kind === 'castle')?.perched).toBe(false);
  });

  it('is deterministic and moves with the seed', () => {
    expect(planScene('a fox', 5).subjects).toEqual(planScene('a fox', 5).subjects);
    const places = new Set(Array.from({ length: 12 }, (_, seed) => planScene('a fox', seed).subjects[0]!.x));
    expect(places.size).toBeGreaterThan(1);
  });

  it('draws a named moon larger than an unnamed one', () => {
    for (let seed = 0; seed < 10; seed += 1) {
      const named = planScene('the moon over the hills', seed).disc!.radius;
      const plain = planScene('a starry night over the hills', seed).disc!.radius;
      // Unnamed moons are 0.03 to 0.05 heights across; a named one is 1.6 times that.
      expect(plain).toBeLessThanOrEqual(0.05);
      expect(named).toBeGreaterThanOrEqual(0.03 * 1.6);
    }
  });
});

describe('drawing subjects', () => {
  // By day: no lighthouse beams, which rightly reach past the frame.
  const grounded = ALL_KINDS.filter((kind) => KINDS[kind].layer !== 'backdrop' && KINDS[kind].layer !== 'sky');

  it.each(grounded)('draws %s inside every frame, at a size proportional to the image', async (kind) => {
    const plan = planScene(`a ${KINDS[kind].words[0]} on a sunny day`, 11);
    for (const ratio of Object.keys(IMAGE_SIZES) as (keyof typeof IMAGE_SIZES)[]) {
      const { box, width, height } = await subjectBox(plan, ratio);
      expect(box, `${kind} at ${ratio}`).toBeDefined();
      // Inside the frame, not cut by its sides or its top.
      expect(box!.x0).toBeGreaterThan(0);
      expect(box!.x1).toBeLessThan(width - 1);
      expect(box!.y0).toBeGreaterThan(0);
      // Proportional: a visible share of the height, whatever the ratio (narrow frames shrink wide things).
      const share = (box!.y1 - box!.y0 + 1) / height;
      expect(share, `${kind} at ${ratio}`).toBeGreaterThan(kind === 'car' || kind === 'fish' ? 0.05 : 0.1);
      expect(share).toBeLessThan(0.8);
    }
  });

  it('draws a mountain behind the land and birds in the upper sky', async () => {
    const mountain = await subjectBox(planScene('a mountain at noon', 2), '16:9');
    expect(mountain.box!.y0 / mountain.height).toBeLessThan(0.35);
    const birds = await subjectBox(planScene('birds at noon', 2), '9:16');
    expect(birds.box!.y1 / birds.height).toBeLessThan(0.5);
  });

  it('lights windows at night and leaves them unlit by day', async () => {
    const lit = async (time: string) => {
      const plan = planScene(`a house by a lake at ${time}`, 4);
      const { width, height, data } = await drawScene(plan, 400, 300);
      let warm = 0;
      for (let i = 0; i < width * height * 4; i += 4) if (data[i]! > 230 && data[i + 1]! > 190 && data[i + 2]! < 150) warm += 1;
      return warm;
    };
    expect(await lit('night')).toBeGreaterThan(20);
    expect(await lit('noon')).toBe(0);
  });
});
