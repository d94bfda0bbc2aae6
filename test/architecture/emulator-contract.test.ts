/**
 * The emulator, a package of its own, keeps its own copy of the image endpoint's value lists
 * (service-api.md 4.2) rather than import svc's: the two must stay the same, in the same order
 * (the default first).
 */
import { ASPECT_RATIOS as EMULATOR_RATIOS, OUTPUT_FORMATS as EMULATOR_FORMATS } from '@svc/emulator/images';
import { describe, expect, it } from 'vitest';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../src/api/images/formats.js';

describe("the image endpoint's lists, in svc and in the emulator", () => {
  it('name the same aspect ratios, 1:1 first', () => {
    expect([...EMULATOR_RATIOS]).toEqual([...ASPECT_RATIOS]);
    expect(ASPECT_RATIOS[0]).toBe('1:1');
  });

  it('name the same output formats, png first', () => {
    expect([...EMULATOR_FORMATS]).toEqual([...IMAGE_FORMATS]);
    expect(IMAGE_FORMATS[0]).toBe('png');
  });
});
