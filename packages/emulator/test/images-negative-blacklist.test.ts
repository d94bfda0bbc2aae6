/**
 * The blacklist and the negative prompt (issue 10, item 23): a blocked term in `negative_prompt`
 * names what must NOT appear, so it does not by itself refuse the image; the prompt is still
 * checked, whatever the negative prompt says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { errorShape, generate, imageBytes } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ blockTerms: ['Forbidden Fruit'] });
});
afterAll(() => emu.close());

describe('a blocked term in the negative prompt', () => {
  it.each([
    ['a built-in term', { prompt: 'a calm lake', negative_prompt: 'no BIOWEAPON labels', output_format: 'jpeg' }],
    ['a --block term across a line break', { prompt: 'a table', negative_prompt: 'Forbidden\nfruit', output_format: 'jpeg' }],
  ])('%s does not refuse the image', async (_what, body) => {
    const answer = await generate(emu, body);
    expect(answer.status).toBe(200);
    expect([...imageBytes(answer).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]); // a JPEG
  });

  it('does not excuse a blocked term in the prompt', async () => {
    const answer = await generate(emu, { prompt: 'a pipe bomb', negative_prompt: 'pipe bomb' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ message: 'Request contains disallowed content', code: 'content_policy_violation' }));
  });
});
