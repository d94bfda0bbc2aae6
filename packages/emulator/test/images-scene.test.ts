/**
 * The scene plan and its drawing: words steer the scene, the negative prompt removes elements and
 * nothing else, and drawing is a pure function of plan and size.
 */
import { describe, expect, it } from 'vitest';
import { drawScene } from '../src/extras/scenes/draw.js';
import { planScene } from '../src/extras/scenes/plan.js';

describe('planScene', () => {
  it('is deterministic, and changes with the seed and the prompt', () => {
    expect(planScene('a harbour', 1)).toEqual(planScene('a harbour', 1));
    expect(planScene('a harbour', 1)).not.toEqual(planScene('a harbour', 2));
    expect(planScene('a harbour', 1)).not.toEqual(planScene('a castle', 1));
  });

  it('ignores the spaces around the prompt', () => {
    expect(planScene('  a harbour\n', 1)).toEqual(planScene('a harbour', 1));
  });

  it.each([
    ['A city skyline at night', 'time', 'night'],
    ['Fishing boats at sunset', 'time', 'sunset'],
    ['A farm at sunrise', 'time', 'dawn'],
    ['A picnic on a sunny afternoon', 'time', 'day'],
    ['Snowy peaks above the clouds', 'terrain', 'mountains'],
    ['A caravan in the Sahara desert', 'terrain', 'dunes'],
    ['Sheep grazing on green hills', 'terrain', 'hills'],
  ] as const)('follows the words of %j (%s = %s) for every seed', (prompt, key, value) => {
    for (let seed = 0; seed < 20; seed += 1) expect(planScene(prompt, seed)[key]).toBe(value);
  });

  it('adds water when the prompt asks for it', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const { water } = planScene('a quiet lake', seed);
      // The waterline in the lower third, and a tint: three channels of 0 to 255.
      expect(water).toEqual({ level: expect.any(Number), tint: [expect.any(Number), expect.any(Number), expect.any(Number)] });
      expect(water!.level).toBeGreaterThanOrEqual(0.62);
      expect(water!.level).toBeLessThanOrEqual(0.74);
      for (const channel of water!.tint) expect(channel >= 0 && channel <= 255).toBe(true);
    }
  });

  it('draws stars and the moon at night only', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const night = planScene('a starry night', seed);
      expect(night.stars).toBeGreaterThan(0);
      expect(night.disc?.kind).toBe('moon');
      const day = planScene('a sunny day', seed);
      expect(day.stars).toBe(0);
      expect(day.disc?.kind).toBe('sun');
      expect(day.disc?.shadow).toBe(0);
    }
  });

  it('takes out what the negative prompt names, and changes nothing else', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const night = planScene('the moon over a lake', seed);
      expect(planScene('the moon over a lake', seed, 'blurry text')).toEqual(night);
      const without = planScene('the moon over a lake', seed, 'the moon, stars, water');
      expect(without.disc).toBeUndefined();
      expect(without.stars).toBe(0);
      expect(without.water).toBeUndefined();
      // Without water the ridges reach the bottom, so they are redrawn; all else stays.
      expect({ ...without, disc: night.disc, stars: night.stars, water: night.water }).toEqual({ ...night, ridges: without.ridges });
      expect(planScene('a sunny day', seed, 'no sun').disc).toBeUndefined();
      expect(planScene('alpine mountains', seed, 'mountains').terrain).toBe('hills');
    }
  });

  it('keeps a setting sun where it was when the water is taken out', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const withWater = planScene('a lake at sunset', seed);
      const withoutWater = planScene('a lake at sunset', seed, 'water');
      expect(withoutWater.water).toBeUndefined();
      expect(withoutWater.disc).toEqual(withWater.disc);
    }
  });
});

describe('drawScene', () => {
  it('fills every pixel, opaque, at the requested size', async () => {
    const pixels = await drawScene(planScene('a lighthouse', 1), 64, 36);
    expect([pixels.width, pixels.height, pixels.data.length]).toEqual([64, 36, 64 * 36 * 4]);
    for (let i = 3; i < pixels.data.length; i += 4) expect(pixels.data[i]).toBe(255);
  });

  it('is a pure function of plan and size', async () => {
    const plan = planScene('a lighthouse', 1);
    const a = await drawScene(plan, 300, 200);
    const b = await drawScene(plan, 300, 200);
    expect(Buffer.from(b.data).equals(Buffer.from(a.data))).toBe(true);
  });

  it('puts the sky above and the land below: the top row and the bottom row differ', async () => {
    const { data, width, height } = await drawScene(planScene('hills at noon', 4), 200, 200);
    const top = data.subarray(0, width * 4);
    const bottom = data.subarray((height - 1) * width * 4);
    let difference = 0;
    for (let i = 0; i < top.length; i += 1) difference += Math.abs(top[i]! - bottom[i]!);
    expect(difference / top.length).toBeGreaterThan(20);
  });

  it('removing the sun changes only the pixels around it', async () => {
    const withSun = planScene('a sunny day', 3);
    const withoutSun = planScene('a sunny day', 3, 'sun');
    const size = 400;
    const a = await drawScene(withSun, size, size);
    const b = await drawScene(withoutSun, size, size);
    const disc = withSun.disc!;
    const cx = size / 2 + disc.x * size;
    const cy = disc.y * size;
    const reach = disc.radius * size * 4.5 + 2;
    let changedNear = 0;
    for (let y = 0; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) {
        const i = (y * size + x) * 4;
        const changed = a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2];
        if (!changed) continue;
        expect(Math.hypot(x + 0.5 - cx, y + 0.5 - cy)).toBeLessThanOrEqual(reach);
        changedNear += 1;
      }
    }
    expect(changedNear).toBeGreaterThan(100);
  });

  // How fast is a budget in bench/run.mjs ("The emulator drawing a megapixel"), not a timed test.
  it('draws a megapixel: every pixel of a 1024×1024 picture, opaque, the same each time', async () => {
    const plan = planScene('a lighthouse by the sea at night', 8);
    const picture = await drawScene(plan, 1024, 1024);
    expect(picture).toMatchObject({ width: 1024, height: 1024 });
    expect(picture.data.length).toBe(1024 * 1024 * 4);
    let transparent = 0;
    for (let i = 3; i < picture.data.length; i += 4) if (picture.data[i] !== 255) transparent += 1;
    expect(transparent).toBe(0);
    expect(Buffer.from((await drawScene(plan, 1024, 1024)).data).equals(Buffer.from(picture.data))).toBe(true);
  });
});
