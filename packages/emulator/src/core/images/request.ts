/**
 * Validation of an image generation request's service fields (docs/service-api.md, "Images" and
 * "Limits"). The result is a typed request with every default applied; the model is checked later,
 * as a 404 rather than a 400. The OpenAI fields beyond these (`n`, `size`, `response_format`, ...)
 * are read by extras/openai/image-request.ts, which calls this first.
 */
import { invalidParam } from '../errors.js';
import { DEFAULT_IMAGE_MODEL } from '../models.js';
import { describe, isObject, optionalEnum, optionalString, rejectUnknownFields, required, type JsonObject } from '../validate.js';
import { ASPECT_RATIOS, OUTPUT_FORMATS, type AspectRatio, type OutputFormat } from './sizes.js';

/** A validated image request with its defaults filled in. */
export interface ServiceImageRequest {
  /** As sent; the image and the revised prompt use it trimmed. */
  prompt: string;
  /** Not yet checked against the served models: that is a 404, not a 400. */
  model: string;
  aspectRatio: AspectRatio;
  outputFormat: OutputFormat;
  /** Undefined when not given: the endpoint then draws with a random seed. */
  seed: number | undefined;
  /** Undefined when not given or blank. */
  negativePrompt: string | undefined;
}

const FIELDS = ['prompt', 'model', 'aspect_ratio', 'output_format', 'seed', 'negative_prompt'];

function parsePrompt(body: JsonObject): string {
  required(body, 'prompt');
  const prompt = optionalString(body, 'prompt') as string;
  if (prompt.trim() === '') {
    throw invalidParam('prompt', `prompt must be a non-empty string describing the image; got ${describe(prompt)}`, 'invalid_value');
  }
  return prompt;
}

/**
 * The seed: any JSON integer a double holds exactly. Beyond the safe range two different seeds
 * could parse to the same number and silently give the same image, so those are refused too.
 */
function parseSeed(body: JsonObject): number | undefined {
  const value = body.seed;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw invalidParam(
    'seed',
    `seed must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}; got ${describe(value)}`,
    typeof value === 'number' ? 'invalid_value' : 'invalid_type',
  );
}

/**
 * Validates a parsed JSON body as an image request's service fields. Throws a 400 naming the first
 * bad parameter; unknown fields (any not here nor in `moreFields`, those a caller reads after
 * this) are refused first, as OpenAI does, so a misspelt option is never silently ignored.
 */
export function parseServiceImageRequest(body: unknown, moreFields: readonly string[] = []): ServiceImageRequest {
  if (!isObject(body)) {
    throw invalidParam(null, `The request body must be a JSON object; got ${describe(body)}`, 'invalid_type');
  }
  rejectUnknownFields(body, [...FIELDS, ...moreFields]);
  const prompt = parsePrompt(body);
  const model = optionalString(body, 'model') ?? DEFAULT_IMAGE_MODEL;
  const aspectRatio = optionalEnum(body, 'aspect_ratio', ASPECT_RATIOS) ?? '1:1';
  const outputFormat = optionalEnum(body, 'output_format', OUTPUT_FORMATS) ?? 'png';
  const seed = parseSeed(body);
  const negative = optionalString(body, 'negative_prompt');
  const negativePrompt = negative === undefined || negative.trim() === '' ? undefined : negative;
  return { prompt, model, aspectRatio, outputFormat, seed, negativePrompt };
}
