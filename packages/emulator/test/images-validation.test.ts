/**
 * The image endpoint's refusals: validation (400), auth (401), unknown models (404) and the
 * blacklist (400), each in the OpenAI error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { errorShape, generate, IMAGES_PATH, imageBody, send } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ blockTerms: ['Forbidden Fruit'] });
});
afterAll(() => emu.close());

const RATIOS = '1:1, 16:9, 9:16, 4:3, 3:4, 21:9';
const FORMATS = 'png, jpeg, webp';
const prompt = 'a red barn in a field';

/** [what, body, param, code, message pattern] — each body must be refused with 400. */
const invalid: [string, unknown, string | null, string, RegExp][] = [
  ['prompt missing', { model: 'svc-vision' }, 'prompt', 'missing_required_parameter', /^Missing required parameter: 'prompt'\.$/],
  ['prompt null', { prompt: null }, 'prompt', 'missing_required_parameter', /Missing required parameter: 'prompt'/],
  ['prompt empty', { prompt: '' }, 'prompt', 'invalid_value', /prompt must be a non-empty string/],
  ['prompt blank', { prompt: ' \n\t ' }, 'prompt', 'invalid_value', /prompt must be a non-empty string/],
  ['prompt a number', { prompt: 42 }, 'prompt', 'invalid_type', /prompt must be a string; got 42/],
  ['prompt an array', { prompt: ['a', 'b'] }, 'prompt', 'invalid_type', /prompt must be a string/],
  ['model a number', { prompt, model: 7 }, 'model', 'invalid_type', /model must be a string/],
  ['aspect_ratio unknown', { prompt, aspect_ratio: '2:1' }, 'aspect_ratio', 'invalid_value', new RegExp(`^aspect_ratio must be one of ${RATIOS}; got "2:1"$`)],
  ['aspect_ratio as a size', { prompt, aspect_ratio: '1024x1024' }, 'aspect_ratio', 'invalid_value', new RegExp(`one of ${RATIOS}`)],
  ['aspect_ratio with spaces', { prompt, aspect_ratio: '16 : 9' }, 'aspect_ratio', 'invalid_value', /one of 1:1/],
  ['aspect_ratio a number', { prompt, aspect_ratio: 1.5 }, 'aspect_ratio', 'invalid_type', new RegExp(`one of ${RATIOS}; got 1.5`)],
  ['output_format unknown', { prompt, output_format: 'gif' }, 'output_format', 'invalid_value', new RegExp(`^output_format must be one of ${FORMATS}; got "gif"$`)],
  ['output_format jpg', { prompt, output_format: 'jpg' }, 'output_format', 'invalid_value', new RegExp(`one of ${FORMATS}`)],
  ['output_format upper case', { prompt, output_format: 'PNG' }, 'output_format', 'invalid_value', /one of png, jpeg, webp/],
  ['output_format a boolean', { prompt, output_format: true }, 'output_format', 'invalid_type', /one of png, jpeg, webp; got true/],
  ['seed a fraction', { prompt, seed: 1.5 }, 'seed', 'invalid_value', /^seed must be an integer from -9007199254740991 to 9007199254740991; got 1.5$/],
  ['seed a string', { prompt, seed: '42' }, 'seed', 'invalid_type', /seed must be an integer .*; got "42"/],
  ['seed too large', { prompt, seed: 2 ** 53 }, 'seed', 'invalid_value', /seed must be an integer from/],
  ['seed too small', { prompt, seed: -(2 ** 53) }, 'seed', 'invalid_value', /seed must be an integer from/],
  ['seed a boolean', { prompt, seed: true }, 'seed', 'invalid_type', /seed must be an integer/],
  ['negative_prompt a number', { prompt, negative_prompt: 3 }, 'negative_prompt', 'invalid_type', /negative_prompt must be a string; got 3/],
  ['negative_prompt an array', { prompt, negative_prompt: ['blur'] }, 'negative_prompt', 'invalid_type', /negative_prompt must be a string/],
  ['an unknown field', { prompt, backgound: 'transparent' }, 'backgound', 'unknown_parameter', /^Unrecognized request argument supplied: backgound$/],
  ['an unknown field before a bad one', { prompt: 5, moderate: 'low' }, 'moderate', 'unknown_parameter', /supplied: moderate/],
  ['a size that is not WxH', { prompt, size: 'large' }, 'size', 'invalid_value', /size must be WIDTHxHEIGHT/],
  ['n above 4', { prompt, n: 5 }, 'n', 'invalid_value', /n must be an integer from 1 to 4; got 5/],
  ['n not a number', { prompt, n: 'two' }, 'n', 'invalid_type', /n must be an integer from 1 to 4/],
  ['an unknown response_format', { prompt, response_format: 'png' }, 'response_format', 'invalid_value', /response_format/],
  ['an unknown quality', { prompt, quality: 'ultra' }, 'quality', 'invalid_value', /quality/],
  ['a body that is an array', [prompt], null, 'invalid_type', /must be a JSON object/],
  ['a body that is a JSON string', JSON.stringify(prompt), null, 'invalid_type', /must be a JSON object/],
];

describe('image request validation', () => {
  it.each(invalid)('refuses %s', async (_what, body, param, code, message) => {
    const answer = await generate(emu, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ param, code }));
    expect(answer.json.error.message).toMatch(message);
    expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('treats null as absent for every optional field: the defaults apply', async () => {
    const answer = await generate(emu, imageBody({ model: null, aspect_ratio: null, output_format: null, seed: null, negative_prompt: null }));
    expect(answer.status).toBe(200);
    const bytes = Buffer.from(answer.json.data[0].b64_json, 'base64');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG'); // default png
    expect(bytes.readUInt32BE(16)).toBe(1024); // default 1:1
    expect(bytes.readUInt32BE(20)).toBe(1024);
    expect(answer.json.data[0].revised_prompt).not.toMatch(/with no|free of|avoiding/);
  });

  it('accepts the seed bounds, zero and negative seeds', async () => {
    for (const seed of [0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      const answer = await generate(emu, imageBody({ seed, output_format: 'jpeg', aspect_ratio: '21:9' }));
      expect(answer.status, `seed ${seed}`).toBe(200);
    }
  });

  it('accepts a blank negative prompt as none', async () => {
    const blank = await generate(emu, imageBody({ seed: 5, negative_prompt: '   ' }));
    const none = await generate(emu, imageBody({ seed: 5 }));
    expect(blank.status).toBe(200);
    expect(blank.json.data[0].revised_prompt).toBe(none.json.data[0].revised_prompt);
    expect(blank.json.data[0].b64_json).toBe(none.json.data[0].b64_json);
  });

  it('refuses a non-JSON content type like the chat endpoint', async () => {
    const answer = await send(emu, { path: IMAGES_PATH, body: JSON.stringify(imageBody()), headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ code: 'invalid_content_type' }));
  });

  it('answers 405 with Allow: POST for another method', async () => {
    const answer = await send(emu, { path: IMAGES_PATH, method: 'GET' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });
});

describe('image endpoint authentication', () => {
  it('refuses a missing key with 401 before looking at the body', async () => {
    const answer = await send(emu, { path: IMAGES_PATH, body: '{not json', key: null });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual(errorShape({ code: 'missing_api_key' }));
  });

  it('refuses a wrong key with 401, even for an otherwise valid request', async () => {
    const answer = await send(emu, { path: IMAGES_PATH, body: imageBody(), key: 'emu-not-the-key' });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual(errorShape({ code: 'invalid_api_key' }));
  });
});

describe('image models', () => {
  it.each([['svc-pro'], ['svc-mini'], ['dall-e-3'], ['gpt-image-1'], ['svc-vision-2'], ['SVC-VISION'], ['']])('answers 404 model_not_found for %j', async (model) => {
    const answer = await generate(emu, imageBody({ model }));
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual(errorShape({ code: 'model_not_found', param: 'model' }));
    expect(answer.json.error.message).toBe(`The model '${model}' does not exist or you do not have access to it.`);
  });

  it('serves svc-vision, named or by default', async () => {
    expect((await generate(emu, imageBody({ model: 'svc-vision', output_format: 'jpeg' }))).status).toBe(200);
    expect((await generate(emu, imageBody({ output_format: 'jpeg' }))).status).toBe(200);
  });

  it('checks parameters before the model: a bad value with a bad model is a 400', async () => {
    const answer = await generate(emu, imageBody({ model: 'nope', aspect_ratio: '5:4' }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.param).toBe('aspect_ratio');
  });

  it('keeps the chat endpoint from serving the image model', async () => {
    const answer = await send(emu, { body: { model: 'svc-vision', messages: [{ role: 'user', content: 'hi' }] } });
    expect(answer.status).toBe(404);
  });
});

describe('image blacklist', () => {
  const disallowed = errorShape({ message: 'Request contains disallowed content', code: 'content_policy_violation' });

  it.each([
    ['a built-in term in the prompt', { prompt: 'a poster about a Pipe  Bomb' }],
    ['a --block term in the prompt', { prompt: 'a forbidden fruit on a table' }],
  ])('refuses %s with the exact message', async (_what, body) => {
    const answer = await generate(emu, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(disallowed);
  });

  it('refuses a blacklisted prompt even when other parameters are valid but the model is not', async () => {
    // The model is checked first: an unknown model is a 404 whatever the prompt says.
    const answer = await generate(emu, { prompt: 'bioweapon', model: 'svc-pro' });
    expect(answer.status).toBe(404);
  });

  it('lets an ordinary prompt through', async () => {
    expect((await generate(emu, { prompt: 'a bomb-proof pipe organ in a cathedral', output_format: 'jpeg' })).status).toBe(200);
  });
});
