/**
 * One image request from the command line or the session's /image, from request to screen: ask
 * (with the spinner), check each image is the format asked for, save it (images/save.ts) or
 * write it to stdout, preview it, then the revised prompt and the saved lines. Shared by `svc
 * image` and `/image`, so it lives beside the commands rather than inside one of them.
 */

import { createReadStream } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ApiClient } from '../api/client.js';
import { readDimensions } from '../api/images/formats.js';
import { generateImages, type ImageGeneration, type ImageRequest } from '../api/images/generate.js';
import { formatBytes } from '../core/byte-size.js';
import { InterruptedError, SvcError } from '../core/errors.js';
import type { ResolvedSettings } from '../factory.js';
import { startSpinner, type IO } from '../terminal/io.js';
import type { PreviewChoice } from '../settings/preview-choices.js';
import { forOutput } from '../core/terminal-text.js';
import type { ImagePlan } from './image-options.js';
import { withParams } from '../core/request-params.js';
import { checkImageFormats } from '../images/check-formats.js';
import { commitAll } from '../images/save.js';
import type { ImageTarget } from './image-target.js';
import { TempImageFile } from '../images/temp-image-file.js';
import { noteFor } from '../terminal/wrap-note.js';
import { stampImages } from '../images/stamp.js';
import { generateVariants, variantSeeds, type Variants } from './image-variants.js';
import { jsonForOutput } from '../core/json.js';

/** `path` relative to `cwd` when it is inside it, else as it is. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

export function buildRequest(plan: ImagePlan, model: string): ImageRequest {
  const request: ImageRequest = { prompt: plan.prompt, model, output_format: plan.format };
  if (plan.aspect) request.aspect_ratio = plan.aspect;
  if (plan.seed !== undefined) request.seed = plan.seed;
  if (plan.negative) request.negative_prompt = plan.negative;
  return withParams(request, plan.params);
}

/** The revised prompt on stdout: on a terminal wrapped with a hanging indent; in a pipe one line, exact. */
function writeRevisedPrompt(io: IO, revisedPrompt: string | undefined): void {
  io.stdout.write(`${noteFor(forOutput(revisedPrompt ?? '', io.stdoutIsTTY), io.stdout as { columns?: number }, io.stdoutIsTTY)}\n`);
}

async function withSpinner<T>(io: IO, work: (note: (line: string) => void) => Promise<T>, what = 'image'): Promise<T> {
  const spinner = await startSpinner(io, `generating ${what}…`);
  const started = Date.now();
  const timer = setInterval(() => spinner.setText(`generating ${what}… ${Math.round((Date.now() - started) / 1000)}s`), 1000);
  // A line of its own: above the spinner on a terminal, as it is elsewhere.
  const note = (line: string): void => (spinner.note ? spinner.note(line) : io.say(line));
  try {
    return await work(note);
  } finally {
    clearInterval(timer);
    spinner.stop();
  }
}

/**
 * How to preview, or none: only on a terminal, never with --json or -o - (stdout is data there).
 * A --preview typo is refused wherever it is typed; a bad SVC_PREVIEW or stored value only stops
 * a run that would show a preview. Read before the request, so either costs no request.
 */
export function previewChoice(io: IO, plan: ImagePlan, settings: ResolvedSettings, flag: string | undefined): PreviewChoice {
  // Plain mode draws no picture: a screen reader and a log have no use for one.
  const shows = io.stdoutIsTTY && !plan.json && plan.output.kind !== 'stdout' && !io.plain;
  if (!shows && flag === undefined) return 'none';
  const choice = settings.preview.value;
  return shows ? choice : 'none';
}

/** One image made and saved: where, and the prompt the service used. */
export interface SavedImage {
  path: string;
  revisedPrompt: string | undefined;
}

/** What the core needs beyond the plan: all settled before the request (no request is wasted). */
export interface ImageJob {
  client: ApiClient;
  model: string;
  preview: PreviewChoice;
  target: ImageTarget;
  signal: AbortSignal;
  /** false where something else owns stdin (the chat session's line editor): no terminal question. */
  probe?: boolean;
}

/**
 * The core of `svc image`, shared with the session's /image: ask (with the spinner), check each
 * image is the format asked for, save (or write to stdout), preview, then the revised prompt and
 * the saved lines. Throws InterruptedError when `signal` stopped the request.
 */
export async function generateAndSave(io: IO, plan: ImagePlan, job: ImageJob): Promise<SavedImage[]> {
  const { signal, target, preview } = job;
  const request = buildRequest(plan, job.model);
  // What the preview needs loads while the service works (there is nothing to preview with -o - or --json).
  let answered = (): void => {};
  if (preview !== 'none' && !plan.json && plan.output.kind !== 'stdout') {
    const { preloadPreview } = await import('../preview/preload.js');
    answered = preloadPreview(preview, plan.format, io.env, job.probe !== false);
  }
  let result: ImageGeneration;
  // -n N: one request a variant, each with its seed (image-variants.ts).
  const count = plan.count ?? 1;
  let variants: Variants | undefined;
  try {
    // Room for the provenance is made while the bytes stream (never for -o -: the bytes as sent).
    const metadata = plan.metadata === true && plan.output.kind !== 'stdout' ? { prompt: plan.prompt } : undefined;
    const openSink = (): TempImageFile => new TempImageFile(target.dir, { metadata });
    if (count > 1) {
      const seeds = variantSeeds(count, plan.seed);
      variants = await withSpinner(io, (note) => generateVariants(generateImages, job.client, request, seeds, { signal, openSink, onDone: (done, variant, seed) => note(`svc: variant ${variant} of ${count} came (seed ${seed}), ${done} of ${count} done`) }), `${count} images`);
      result = variants.result;
    } else result = await withSpinner(io, () => generateImages(job.client, request, { signal, openSink }));
  } catch (error) {
    throw signal.aborted ? new InterruptedError() : error;
  } finally {
    answered();
  }
  try {
    checkImageFormats(result.images, plan.format);
    if (plan.output.kind === 'stdout') {
      if (result.images.length !== 1) throw new SvcError(`-o - writes one image, and the service sent ${result.images.length}`, { hint: 'use -o name.ext to save them all' });
      const [image] = result.images;
      await pipeline(createReadStream(image!.file.path), io.stdout, { end: false });
      io.say(image!.revisedPrompt ?? '');
      return [];
    }
    if (plan.metadata === true) {
      const base = { prompt: plan.prompt, negativePrompt: plan.negative, model: job.model, seed: plan.seed, aspectRatio: plan.aspect, format: plan.format };
      stampImages(result, base, (note) => io.warn(note), variants?.made.map((made) => made.seed));
    }
    // Variants keep their numbers (name-1 … name-N) even when one of them failed.
    const paths = target.paths(variants ? count : result.images.length);
    const saved = result.images.map((image, index) => ({ path: paths[variants ? variants.made[index]!.variant - 1 : index]!, image, tempPath: image.file.path, seed: variants?.made[index]!.seed }));
    commitAll(saved, plan.force);
    if (plan.json) {
      // An image the service gave as a URL keeps it: where it came from, for scripts that need it.
      // The seed each was asked with (null: none was sent, the service chose), and its pixel size as read from the file.
      const images = saved.map(({ path, image, seed }) => {
        const size = readDimensions(image.file.head);
        return { path, revised_prompt: image.revisedPrompt ?? null, bytes: image.file.bytes, seed: seed ?? plan.seed ?? null, width: size?.width ?? null, height: size?.height ?? null, ...(image.url === undefined ? {} : { url: image.url }) };
      });
      io.stdout.write(jsonForOutput({ created: result.created, images, usage: result.usage ?? null }, io.stdoutIsTTY));
    } else if (variants && preview !== 'none') {
      // One contact sheet for the variants, each labelled with its number and seed.
      const { showContactSheet } = await import('../preview/contact-sheet.js');
      const tiles = saved.map(({ path }, index) => ({ path, label: `${variants!.made[index]!.variant} · seed ${variants!.made[index]!.seed}` }));
      await showContactSheet(io, tiles, { choice: preview, label: 'the variants', ...(job.probe === false ? { probe: false } : {}) });
      for (const { image } of saved) writeRevisedPrompt(io, image.revisedPrompt);
    } else {
      for (const { path, image } of saved) {
        if (preview !== 'none') {
          const { showPreview } = await import('../preview/show.js');
          await showPreview(io, { path }, { choice: preview, label: shownPath(io.cwd, path), ...(job.probe === false ? { probe: false } : {}) });
        }
        writeRevisedPrompt(io, image.revisedPrompt);
      }
    }
    for (const { path, image, seed } of saved) {
      const size = readDimensions(image.file.head);
      const dims = size ? `${size.width}×${size.height}, ` : '';
      io.say(`saved ${shownPath(io.cwd, path)} (${seed === undefined ? '' : `seed ${seed}, `}${dims}${formatBytes(image.file.bytes)})`);
    }
    if (plan.open) {
      const { openInViewer } = await import('./image/open-viewer.js');
      for (const { path } of saved) await openInViewer(io, path, shownPath(io.cwd, path));
    }
    // A variant that failed: the others are saved above; its failure is the command's.
    if (variants?.failure !== undefined) throw signal.aborted ? new InterruptedError() : variants.failure;
    return saved.map(({ path, image }) => ({ path, revisedPrompt: image.revisedPrompt }));
  } finally {
    for (const image of result.images) image.file.discard();
  }
}

