/**
 * `svc image "prompt" -n 4` and `/image -n 4`: several variants of one prompt, one request each
 * (the service API has no `n`, and a seed per request lets each variant be made again), sent
 * at once: the client's retries and the service's Retry-After pace them. With `--seed S` the
 * seeds are S, S+1, S+2…; without, each gets a random seed, recorded in its file. A variant that
 * fails does not take the others with it: they are saved, and the failure is reported after.
 */
import { randomInt } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import type { ImageGeneration, ImageRequest, ImageSink } from '../api/images/generate.js';

/** Seeds are whole numbers 0 to 2^32 - 1. */
const SEED_LIMIT = 4_294_967_296;

export interface Variants {
  /** The images that came, in variant order, as one answer. */
  result: ImageGeneration;
  /** For each image of `result`: its variant number (1-based) and seed. */
  made: Array<{ variant: number; seed: number }>;
  /** The first variant that failed, when one did (the others are in `result`). */
  failure?: unknown;
}

/** A seed of svc's choosing, recorded so the image can be made again (variants, `svc image again`). */
export function randomSeed(): number {
  return randomInt(0, SEED_LIMIT);
}

/** The seeds of `count` variants: from `first` on, or random. */
export function variantSeeds(count: number, first: number | undefined): number[] {
  return Array.from({ length: count }, (_, index) => (first === undefined ? randomSeed() : (first + index) % SEED_LIMIT));
}

export async function generateVariants(
  generate: (client: ApiClient, request: ImageRequest, options: { signal?: AbortSignal; openSink: () => ImageSink }) => Promise<ImageGeneration>,
  client: ApiClient,
  request: ImageRequest,
  seeds: readonly number[],
  options: { signal: AbortSignal; openSink: () => ImageSink; onDone: (done: number, variant: number, seed: number) => void },
): Promise<Variants> {
  let done = 0;
  const settled = await Promise.allSettled(
    seeds.map(async (seed, index) => {
      const result = await generate(client, { ...request, seed }, { signal: options.signal, openSink: options.openSink });
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
