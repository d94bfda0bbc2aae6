/**
 * An image generation's answer to saved files, done the same way by every caller (svc image, its
 * -n variants and `again`, the session's /image, svc batch). The images stream into hidden
 * temporary files in the folder they are saved in ({@link temporaryFiles}); then every image must
 * be the format asked for, gets the request that made it written in as its provenance, and takes
 * its final name, all of them or none ({@link saveGeneration}). The temporary files are removed
 * however that ends, so a failure at any step leaves nothing behind.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ImageFormat } from '../api/images/formats.js';
import type { GeneratedImage, ImageGeneration, ImageRequest, ImageSink } from '../api/images/generate.js';
import { MalformedResponseError, SvcError } from '../core/errors.js';
import { isObject } from '../core/json.js';
import { version } from '../core/version.js';
import { detectFormat, EXTENSION, readDimensions, type Dimensions } from './file-format.js';
import { nameTaken, numbered } from './file-names.js';
import { MetadataNotWritten } from './metadata-writer.js';
import type { Provenance } from './provenance.js';
import { commitAll } from './save.js';
import { TempImageFile } from './temp-image-file.js';

/**
 * Where a generation's images stream to (generateImages' `openSink`): hidden temporary files in
 * `dir`, the folder they will be saved in, so that taking the final name is a link or a rename on
 * one disk. With `provenanceOf`, each file gets room for that request's provenance as its bytes
 * stream in, so that writing it later is a few small writes, never a copy of the file: give it
 * exactly when {@link saveGeneration} is to write one.
 */
export function temporaryFiles(dir: string, provenanceOf?: ImageRequest): () => ImageSink {
  const metadata = provenanceOf === undefined ? undefined : { prompt: provenanceOf.prompt };
  return () => new TempImageFile(dir, { metadata });
}

/**
 * Images named by the caller in `dir` (svc batch: the request's custom_id): `name.png`, or
 * `name-1.png`, `name-2.png`… when the answer holds several. `taken`: something has the name
 * already (a link pointing nowhere too), so the request need not be sent; saving refuses a taken
 * name again at the end.
 */
export function namedTarget(dir: string, name: string, format: ImageFormat): { path: string; taken: boolean; paths(count: number): string[] } {
  const path = join(dir, `${name}${EXTENSION[format]}`);
  return { path, taken: nameTaken(path), paths: (count) => numbered(path, count) };
}

export interface SaveOptions {
  /**
   * Where the images go: the final path of each of the answer's `count` images, in its order,
   * asked for once they are checked (never over a file unless `force`); or a stream for the
   * answer's one image, its bytes as sent (`-o -`).
   */
  to: { paths: (count: number) => readonly string[]; force?: boolean } | { stream: Writable };
  /**
   * Write the request into each file as its provenance (provenance.ts), with the seed from `seeds`
   * where variants had one each; `warn` says so when a file has no room for it (the image is
   * saved as it came: it matters more than its label). Never into a stream.
   */
  provenance?: { warn: (note: string) => void; seeds?: ReadonlyArray<number | undefined> | undefined } | undefined;
}

/** An image saved: where, what the service said of it, and its size as written. */
export interface SavedImage {
  path: string;
  revisedPrompt: string | undefined;
  /** The URL the service gave the image at, when it gave one instead of the bytes. */
  url: string | undefined;
  bytes: number;
  /** The pixel size its header gives. */
  size: Dimensions | undefined;
}

/** The format the request asked for; the service's default when it names none. */
function formatAsked(request: ImageRequest): ImageFormat {
  return request.output_format ?? 'png';
}

/** Every image must be the format asked for, or nothing is saved at all: its first bytes say. */
function checkFormats(images: readonly GeneratedImage[], format: ImageFormat): void {
  images.forEach((image, index) => {
    const found = detectFormat(image.file.head);
    if (found !== format) {
      const which = images.length > 1 ? `image ${index + 1}` : 'the image';
      throw new MalformedResponseError(`${which} the service sent is ${found ?? 'not a known image format'}, not the ${format} asked for; nothing was written`);
    }
  });
}

/** The seed the service reports for image `index` (`data[i].seed`), when it does. */
function reportedSeed(answer: Record<string, unknown>, index: number): number | undefined {
  const data = answer.data;
  const entry = Array.isArray(data) ? (data[index] as unknown) : undefined;
  return isObject(entry) && typeof entry.seed === 'number' && Number.isSafeInteger(entry.seed) ? entry.seed : undefined;
}

/**
 * Put the provenance into every image whose file was made with room for it, before it gets its
 * real name: what was asked (prompt, negative prompt, model, aspect, format), what the service
 * answered (revised prompt, the seed it reports when it reports one), when, and by which svc.
 */
function stamp(result: ImageGeneration, request: ImageRequest, provenance: NonNullable<SaveOptions['provenance']>): void {
  const createdAt = new Date().toISOString();
  result.images.forEach((image, index) => {
    if (!(image.file instanceof TempImageFile)) return;
    const record: Provenance = {
      prompt: request.prompt,
      negativePrompt: request.negative_prompt,
      model: request.model,
      seed: provenance.seeds?.[index] ?? request.seed ?? reportedSeed(result.answer, index),
      aspectRatio: request.aspect_ratio,
      format: formatAsked(request),
      revisedPrompt: image.revisedPrompt,
      createdAt,
      svcVersion: version,
    };
    try {
      image.file.addProvenance(record);
    } catch (error) {
      if (!(error instanceof MetadataNotWritten)) throw error;
      provenance.warn(`the prompt and seed were not written into the image: ${error.message}`);
    }
  });
}

/**
 * Save the images of `result`, the answer to `request`: each must be the format the request asked
 * for, gets its provenance when asked to, and takes its final name, all of them or none (save.ts).
 * Returns what was saved, in the answer's order (nothing for a stream). The temporary files are
 * removed however it ends, the error (if any) going on to the caller.
 */
export async function saveGeneration(result: ImageGeneration, request: ImageRequest, options: SaveOptions): Promise<SavedImage[]> {
  try {
    checkFormats(result.images, formatAsked(request));
    const { to } = options;
    if ('stream' in to) {
      if (result.images.length !== 1) throw new SvcError(`-o - writes one image, and the service sent ${result.images.length}`, { hint: 'use -o name.ext to save them all' });
      await pipeline(createReadStream(result.images[0]!.file.path), to.stream, { end: false });
      return [];
    }
    if (options.provenance) stamp(result, request, options.provenance);
    const paths = to.paths(result.images.length);
    const files = result.images.map((image, index) => ({ image, tempPath: image.file.path, path: paths[index]! }));
    commitAll(files, to.force === true);
    return files.map(({ image, path }) => ({ path, revisedPrompt: image.revisedPrompt, url: image.url, bytes: image.file.bytes, size: readDimensions(image.file.head) }));
  } finally {
    for (const image of result.images) image.file.discard();
  }
}
