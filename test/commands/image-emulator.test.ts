/** `svc image` (in-process) against the emulator: every aspect ratio and format for real. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, readDimensions } from '../../src/images/file-format.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';

const KEY = 'image-e2e-key-0123456789abcdef';

// The emulator's sizes (README "svc emulator"): about one megapixel, exactly the ratio.
const SIZES: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '16:9': [1344, 756],
  '9:16': [756, 1344],
  '4:3': [1152, 864],
  '3:4': [864, 1152],
  '21:9': [1512, 648],
};
const FORMATS = { png: '.png', jpeg: '.jpg', webp: '.webp' } as const;

// The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
const setup = useEmulatorSandbox(KEY, { blockTerms: ['forbidden-fruit'] }, { SVC_IMAGE_METADATA: 'off' });

describe('svc image against the emulator', () => {
  for (const [aspect, [width, height]] of Object.entries(SIZES)) {
    for (const [format, ext] of Object.entries(FORMATS)) {
      it(`${aspect} ${format}: a real ${width}×${height} image`, async () => {
        const name = `out-${aspect.replace(':', 'x')}${ext}`;
        const result = await runSvc(['image', 'a lighthouse at dusk', '--aspect', aspect, '--seed', '7', '-o', name], setup.sandbox);
        expect(result.exitCode).toBe(0);
        const bytes = readFileSync(join(setup.sandbox.home, name));
        expect(detectFormat(bytes)).toBe(format);
        expect(readDimensions(bytes)).toEqual({ width, height });
        // The revised prompt: the prompt, capitalised, then what the emulator added, on one line.
        expect(result.stdout).toMatch(/^A lighthouse at dusk, [^\n]+\n$/);
        expect(result.stderr).toContain(`saved ${name} (${width}×${height}, `);
      });
    }
  }

  it('same prompt and seed give the same bytes; another seed, other bytes', async () => {
    await runSvc(['image', 'a fox', '--seed', '1', '-o', 'a.png'], setup.sandbox);
    await runSvc(['image', 'a fox', '--seed', '1', '-o', 'b.png'], setup.sandbox);
    await runSvc(['image', 'a fox', '--seed', '2', '-o', 'c.png'], setup.sandbox);
    const [a, b, c] = ['a.png', 'b.png', 'c.png'].map((file) => readFileSync(join(setup.sandbox.home, file)));
    expect(a!.equals(b!)).toBe(true);
    expect(a!.equals(c!)).toBe(false);
  });

  it('--json and the negative prompt reflected in the revised prompt', async () => {
    const result = await runSvc(['image', 'a quiet harbour', '--negative', 'boats', '--json'], setup.sandbox);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.images).toHaveLength(1);
    expect(parsed.images[0].path).toBe(join(setup.sandbox.home, 'a-quiet-harbour.png'));
    expect(parsed.images[0].revised_prompt).toMatch(/boats/);
    expect(parsed.images[0].bytes).toBe(readFileSync(parsed.images[0].path).length);
    expect(parsed.usage.completion_tokens).toBe(0);
    expect(parsed.usage.total_tokens).toBe(parsed.usage.prompt_tokens);
  });

  it('disallowed content is exit 4 with exactly the message, nothing written', async () => {
    const result = await runSvc(['image', 'a forbidden-fruit still life', '-o', 'no.png'], setup.sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('error: Request contains disallowed content');
    expect(existsSync(join(setup.sandbox.home, 'no.png'))).toBe(false);
  });

  it('a chat model is not an image model (exit 4)', async () => {
    const result = await runSvc(['image', 'x', '-m', 'svc-pro', '-o', 'no2.png'], setup.sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('svc-pro');
  });
});
