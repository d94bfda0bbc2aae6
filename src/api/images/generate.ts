/**
 * One image generation: POST /v1/images/generations, the answer read as a stream with every
 * image decoded straight into a temporary file (see blob-scanner.ts). And variants of one request
 * (`-n N`), several generations merged into one answer.
 */
import type { Usage } from '../chat-types.js';
import type { ApiClient } from '../client.js';
import { MalformedResponseError } from '../../core/errors.js';
import { isObject } from '../../core/json.js';
import { htmlAnswerError, isHtmlAnswer, peekBody } from '../answer-body.js';
import { hasServiceError, serviceErrorIn } from '../service-message.js';
import { BlobScanner, placeholder, type BlobSink } from './blob-scanner.js';
import { MAX_SEED, randomSeed, type AspectRatio, type ImageFormat } from './formats.js';
import { downloadImage } from './download.js';

/** The request body (docs/service-api.md, "Images"). Optional fields are left out, never null. */
export interface ImageRequest {
  prompt: string;
  model: string;
  aspect_ratio?: AspectRatio;
  output_format?: ImageFormat;
  seed?: number;
  negative_prompt?: string;
}

/**
 * Where one image's bytes go as they are decoded or downloaded: given by the caller (svc writes
 * them to a temporary file beside the final name, images/temp-image-file.ts), so this layer
 * never touches the disk itself.
 */
export interface ImageSink extends BlobSink {
  /** Where the bytes are, once the sink has ended. */
  readonly path: string;
  /** How many bytes were written. */
  readonly bytes: number;
  /** The first bytes written, for the format and size checks. */
  readonly head: Buffer;
  /** Throw the image away (after a failure, or once it was saved elsewhere). */
  discard(): void;
}

export interface GeneratedImage {
  revisedPrompt: string | undefined;
  file: ImageSink;
  /** The URL the image was downloaded from, when the service answered with one instead of b64_json. */
  url?: string;
}

export interface ImageGeneration {
  created: number;
  images: GeneratedImage[];
  usage: Usage | undefined;
  /** The HTTP status and request id of the answer. */
  status: number;
  requestId: string | undefined;
  /**
   * The whole answer as the service sent it, each `data[n].b64_json` replaced by the placeholder
   * of `images[n].file` (svc batch writes this body with the image's path instead).
   */
  answer: Record<string, unknown>;
}

/** An image of the answer: already decoded into a file, or still to be downloaded from its URL. */
type AnswerImage = { revisedPrompt: string | undefined } & ({ file: ImageSink } | { url: string });

function readAnswer(document: unknown, files: ImageSink[]): Omit<ImageGeneration, 'status' | 'requestId' | 'images'> & { images: AnswerImage[] } {
  if (!isObject(document)) throw new MalformedResponseError('the service answered with something that is not an image result');
  // As for a chat answer: a problem with the request (content_policy_violation) is exit 4.
  if (hasServiceError(document)) throw serviceErrorIn(document, JSON.stringify(document), undefined, 'answer');
  if (!Array.isArray(document.data)) throw new MalformedResponseError('the service answered without `data`: not an image result');
  if (document.data.length === 0) throw new MalformedResponseError('the service answered with no images (`data` is empty)');
  const images = document.data.map((item, index): AnswerImage => {
    const revised = isObject(item) && typeof item.revised_prompt === 'string' ? item.revised_prompt : undefined;
    const slot = isObject(item) ? item.b64_json : undefined;
    const fileIndex = typeof slot === 'string' ? files.findIndex((_file, n) => placeholder(n) === slot) : -1;
    if (fileIndex !== -1) return { revisedPrompt: revised, file: files[fileIndex]! };
    const url = isObject(item) && typeof item.url === 'string' && item.url !== '' ? item.url : undefined;
    if (url !== undefined) return { revisedPrompt: revised, url };
    throw new MalformedResponseError(`image ${index + 1} of the answer has neither b64_json nor url: no image came back`);
  });
  const usage = isObject(document.usage) ? (document.usage as unknown as Usage) : undefined;
  const created = typeof document.created === 'number' ? document.created : Math.floor(Date.now() / 1000);
  return { created, images, usage, answer: document };
}

/** Generate; on any failure every temporary file is removed before the error goes on. */
export async function generateImages(client: ApiClient, request: ImageRequest, options: { signal?: AbortSignal; openSink: () => ImageSink }): Promise<ImageGeneration> {
  const response = await client.post('images/generations', request, options.signal);
  const files: ImageSink[] = [];
  try {
    const scanner = new BlobScanner(() => {
      const file = options.openSink();
      files.push(file);
      return file;
    });
    const { head, body } = await peekBody(response.body);
    if (isHtmlAnswer(head, response.contentType)) throw await htmlAnswerError(body, client.baseUrlOrigin);
    if (head === '') throw new MalformedResponseError('the service sent an empty answer (a success status with no body)');
    for await (const chunk of body) scanner.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    const read = readAnswer(scanner.end(), files);
    // Images given as URLs are fetched now, one after another, into files of their own.
    const images: GeneratedImage[] = [];
    for (const image of read.images) {
      if ('file' in image) {
        images.push(image);
        continue;
      }
      const file = options.openSink();
      files.push(file);
      await downloadImage(client, image.url, file, options.signal);
      images.push({ revisedPrompt: image.revisedPrompt, file, url: image.url });
    }
    const result = { ...read, images, status: response.status, requestId: response.requestId };
    // Images the document does not point to (a stray b64_json elsewhere) are not kept.
    for (const file of files) if (!result.images.some((image) => image.file === file)) file.discard();
    return result;
  } catch (error) {
    response.discard();
    for (const file of files) file.discard();
    throw error;
  }
}

export interface Variants {
  /** The images that came, in variant order, as one answer. */
  result: ImageGeneration;
  /** For each image of `result`: its variant number (1-based) and seed. */
  made: Array<{ variant: number; seed: number }>;
  /** The first variant that failed, when one did (the others are in `result`). */
  failure?: unknown;
}

/** The seeds of `count` variants: from `first` on (past the largest, round to 0), or random. */
export function variantSeeds(count: number, first: number | undefined): number[] {
  return Array.from({ length: count }, (_, index) => (first === undefined ? randomSeed() : (first + index) % (MAX_SEED + 1)));
}

/**
 * `svc image "prompt" -n 4` and `/image -n 4`: several variants of one prompt, one request each
 * (the service API has no `n`, and a seed per request lets each variant be made again), sent at
 * once: the client's retries and the service's Retry-After pace them. A variant that fails does
 * not take the others with it: they come back, with the first failure beside them; only when
 * every one failed is it thrown.
 */
export async function generateVariants(
  client: ApiClient,
  request: ImageRequest,
  seeds: readonly number[],
  options: { signal: AbortSignal; openSink: () => ImageSink; onDone: (done: number, variant: number, seed: number) => void },
): Promise<Variants> {
  let done = 0;
  const settled = await Promise.allSettled(
    seeds.map(async (seed, index) => {
      const result = await generateImages(client, { ...request, seed }, { signal: options.signal, openSink: options.openSink });
      done += 1;
      options.onDone(done, index + 1, seed);
      return result;
    }),
  );
  const results: Array<{ result: ImageGeneration; variant: number; seed: number }> = [];
  let failure: unknown;
  settled.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') results.push({ result: outcome.value, variant: index + 1, seed: seeds[index]! });
    else failure ??= outcome.reason;
  });
  if (results.length === 0) throw failure;
  const first = results[0]!.result;
  const usage = results.every(({ result }) => result.usage)
    ? results.reduce((sum, { result }) => ({ prompt_tokens: sum.prompt_tokens + result.usage!.prompt_tokens, completion_tokens: sum.completion_tokens + result.usage!.completion_tokens, total_tokens: sum.total_tokens + result.usage!.total_tokens }), { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
    : undefined;
  return {
    result: { ...first, images: results.flatMap(({ result }) => result.images), usage },
    made: results.flatMap(({ result, variant, seed }) => result.images.map(() => ({ variant, seed }))),
    ...(failure === undefined ? {} : { failure }),
  };
}
