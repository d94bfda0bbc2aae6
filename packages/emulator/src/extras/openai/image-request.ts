/**
 * The OpenAI image fields svc never sends, read after the service's (core/images/request.ts):
 * `n`, `size` (mapped to the nearest aspect ratio when `aspect_ratio` is not given),
 * `response_format` (`url`: served-files.ts), `output_compression`, and `quality`, `style`,
 * `user`, `background` and `moderation`, checked and accepted; `stream` is refused. The result is
 * the whole request the image endpoint answers.
 */
import { invalidParam } from '../../core/errors.js';
import { parseServiceImageRequest, type ServiceImageRequest } from '../../core/images/request.js';
import { ASPECT_RATIOS, type AspectRatio } from '../../core/images/sizes.js';
import { describe, isSet, optionalBoolean, optionalEnum, optionalString, type JsonObject } from '../../core/validate.js';

/** A validated image request, the service's fields and OpenAI's, with its defaults filled in. */
export interface ImageRequest extends ServiceImageRequest {
  /** How many images (OpenAI's `n`, 1 to 4); each drawn with the next seed. */
  n: number;
  /** `b64_json` (the default) or `url`: a link to the image served by the emulator for a while. */
  responseFormat: 'b64_json' | 'url';
  /** `output_compression` (0 to 100): the JPEG or WebP quality; undefined for the encoder's own. */
  compression: number | undefined;
}

const OPENAI_FIELDS = ['n', 'size', 'response_format', 'quality', 'style', 'user', 'output_compression', 'background', 'moderation', 'stream', 'partial_images'];

const MAX_N = 4;
/** Accepted as OpenAI's are; the emulator draws the same picture whatever they say. */
const QUALITIES = ['auto', 'standard', 'hd', 'low', 'medium', 'high'] as const;
const STYLES = ['vivid', 'natural'] as const;
/** Accepted as OpenAI's are; the emulator's scenes are opaque, and its blacklist is its moderation. */
const BACKGROUNDS = ['transparent', 'opaque', 'auto'] as const;
const MODERATIONS = ['low', 'auto'] as const;

/** `output_compression`: an integer from 0 to 100, the quality of a JPEG or WebP (a PNG is lossless). */
function parseCompression(body: JsonObject): number | undefined {
  const value = body.output_compression;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100) return value;
  throw invalidParam('output_compression', `output_compression must be an integer from 0 to 100; got ${describe(value)}`, typeof value === 'number' ? 'invalid_value' : 'invalid_type');
}

/**
 * `stream: true` asks for partial images as they are drawn, which the emulator does not make: a
 * clear 400 rather than a whole answer the client's stream reader cannot read.
 */
function refuseStreaming(body: JsonObject): void {
  const stream = optionalBoolean(body, 'stream');
  const partial = body.partial_images;
  if (partial !== undefined && partial !== null && (typeof partial !== 'number' || !Number.isInteger(partial) || partial < 0 || partial > 3)) {
    throw invalidParam('partial_images', `partial_images must be an integer from 0 to 3; got ${describe(partial)}`, typeof partial === 'number' ? 'invalid_value' : 'invalid_type');
  }
  if (stream === true) throw invalidParam('stream', 'The emulator answers each image whole: stream is not supported for images.', 'unsupported_value');
}

/** The aspect ratio nearest to an OpenAI `size` ("1792x1024", "auto"). */
function aspectOfSize(body: JsonObject): AspectRatio | undefined {
  const size = optionalString(body, 'size');
  if (size === undefined || size === 'auto') return undefined;
  const match = /^(\d{2,5})x(\d{2,5})$/.exec(size);
  if (!match) throw invalidParam('size', `size must be WIDTHxHEIGHT (e.g. 1024x1024) or auto; got ${describe(size)}`, 'invalid_value');
  const wanted = Math.log(Number(match[1]) / Number(match[2]));
  let best: AspectRatio = '1:1';
  for (const ratio of ASPECT_RATIOS) {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    const [bw, bh] = best.split(':').map(Number) as [number, number];
    if (Math.abs(Math.log(w / h) - wanted) < Math.abs(Math.log(bw / bh) - wanted)) best = ratio;
  }
  return best;
}

function parseN(body: JsonObject): number {
  const value = body.n;
  if (value === undefined || value === null) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_N) {
    throw invalidParam('n', `n must be an integer from 1 to ${MAX_N}; got ${describe(value)}`, typeof value === 'number' ? 'invalid_value' : 'invalid_type');
  }
  return value;
}

/**
 * Validates a parsed JSON body as an image request: the service's fields first, then OpenAI's.
 * Throws a 400 naming the first bad parameter.
 */
export function parseImageRequest(value: unknown): ImageRequest {
  const request = parseServiceImageRequest(value, OPENAI_FIELDS);
  // An object: the service's fields were read from it.
  const body = value as JsonObject;
  // aspect_ratio (the service's own field) wins over OpenAI's size, which maps to the nearest ratio.
  const aspectRatio = isSet(body, 'aspect_ratio') ? request.aspectRatio : (aspectOfSize(body) ?? request.aspectRatio);
  const n = parseN(body);
  const responseFormat = optionalEnum(body, 'response_format', ['b64_json', 'url'] as const) ?? 'b64_json';
  optionalEnum(body, 'quality', QUALITIES);
  optionalEnum(body, 'style', STYLES);
  optionalString(body, 'user');
  const compression = parseCompression(body);
  optionalEnum(body, 'background', BACKGROUNDS);
  optionalEnum(body, 'moderation', MODERATIONS);
  refuseStreaming(body);
  return { ...request, aspectRatio, n, responseFormat, compression };
}
