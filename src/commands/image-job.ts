/**
 * One image request from the command line or the session's /image, from the words typed to the
 * screen: the plan (image-options.ts) and where it goes (image-target.ts), both checked before
 * anything is sent; then ask (with the spinner), save (images/save-generation.ts) or write to
 * stdout, preview, the revised prompt and the saved lines. Shared by `svc image` (and `again`)
 * and `/image`, so it lives beside the commands rather than inside one of them; `svc image`
 * loads it only when it runs.
 */

import { relative, isAbsolute } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { generateImages, generateVariants, variantSeeds, type ImageGeneration, type ImageRequest, type Variants } from '../api/images/generate.js';
import { formatBytes } from '../core/byte-size.js';
import { InterruptedError } from '../core/errors.js';
import type { ResolvedSettings } from '../factory.js';
import { startSpinner, type IO } from '../terminal/io.js';
import type { PreviewChoice } from '../settings/definitions.js';
import { forOutput } from '../core/terminal-text.js';
import { parseImageOptions, type ImagePlan, type RawImageOptions } from './image-options.js';
import { withParams } from '../core/request-params.js';
import { saveGeneration, temporaryFiles, type SavedImage } from '../images/save-generation.js';
import { isFolder, prepareTarget, type ImageTarget } from './image-target.js';
import { noteFor } from '../terminal/wrap-note.js';
import { jsonForOutput } from '../core/json.js';
import { printDryRun } from './dry-run.js';

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

/**
 * The words and flags as typed → the plan, every value checked (a folder named by -o is looked
 * at). `beside`: `svc image again FILE` without -o saves beside FILE, named after it.
 */
export function planImage(io: IO, raw: RawImageOptions, beside?: string): ImagePlan {
  const plan = parseImageOptions(raw, (path) => isFolder(io.cwd, path));
  if (beside !== undefined && raw.output === undefined) plan.output = { kind: 'beside', path: beside };
  return plan;
}

/** `--dry-run`: the request as a curl command on stdout; nothing is sent, nothing written. */
export function printImageDryRun(io: IO, settings: ResolvedSettings, plan: ImagePlan): void {
  printDryRun(io, settings, 'images/generations', buildRequest(plan, settings.imageModel.value), false);
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
function previewChoice(io: IO, plan: ImagePlan, settings: ResolvedSettings, flag: string | undefined): PreviewChoice {
  // Plain mode draws no picture: a screen reader and a log have no use for one.
  const shows = io.stdoutIsTTY && !plan.json && plan.output.kind !== 'stdout' && !io.plain;
  if (!shows && flag === undefined) return 'none';
  const choice = settings.preview.value;
  return shows ? choice : 'none';
}

/**
 * What is settled before the request, so that none is wasted: the preview (`flag`: --preview as
 * typed) and the target (a missing or read-only folder, a taken name).
 */
export function prepareImage(io: IO, plan: ImagePlan, settings: ResolvedSettings, flag: string | undefined): { preview: PreviewChoice; target: ImageTarget } {
  const preview = previewChoice(io, plan, settings, flag);
  return { preview, target: prepareTarget(io, plan) };
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
 * The core of `svc image`, shared with the session's /image: ask (with the spinner), save the
 * answer (or write it to stdout), preview, then the revised prompt and the saved lines. Throws
 * InterruptedError when `signal` stopped the request.
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
  // The provenance goes into saved files only: -o - writes the bytes as sent.
  const provenance = plan.metadata === true && plan.output.kind !== 'stdout';
  const openSink = temporaryFiles(target.dir, provenance ? request : undefined);
  let result: ImageGeneration;
  // -n N: one request a variant, each with its seed (api/images/generate.ts).
  const count = plan.count ?? 1;
  let variants: Variants | undefined;
  try {
    if (count > 1) {
      const seeds = variantSeeds(count, plan.seed);
      variants = await withSpinner(io, (note) => generateVariants(job.client, request, seeds, { signal, openSink, onDone: (done, variant, seed) => note(`svc: variant ${variant} of ${count} came (seed ${seed}), ${done} of ${count} done`) }), `${count} images`);
      result = variants.result;
    } else result = await withSpinner(io, () => generateImages(job.client, request, { signal, openSink }));
  } catch (error) {
    throw signal.aborted ? new InterruptedError() : error;
  } finally {
    answered();
  }
  if (plan.output.kind === 'stdout') {
    await saveGeneration(result, request, { to: { stream: io.stdout } });
    io.say(result.images[0]!.revisedPrompt ?? '');
    return [];
  }
  // Variants keep their numbers (name-1 … name-N) even when one of them failed, and each its seed.
  const made = variants?.made;
  const seeds = made?.map(({ seed }) => seed);
  const paths = (images: number): string[] => {
    const names = target.paths(made ? count : images);
    return made ? made.map(({ variant }) => names[variant - 1]!) : names;
  };
  const saved = await saveGeneration(result, request, { to: { paths, force: plan.force }, provenance: plan.metadata === true ? { warn: (note) => io.warn(note), seeds } : undefined });
  const seedOf = (index: number): number | undefined => seeds?.[index] ?? plan.seed;
  if (plan.json) {
    // An image the service gave as a URL keeps it: where it came from, for scripts that need it.
    // The seed each was asked with (null: none was sent, the service chose), and its pixel size as read from the file.
    const images = saved.map(({ path, revisedPrompt, bytes, size, url }, index) => ({ path, revised_prompt: revisedPrompt ?? null, bytes, seed: seedOf(index) ?? null, width: size?.width ?? null, height: size?.height ?? null, ...(url === undefined ? {} : { url }) }));
    io.stdout.write(jsonForOutput({ created: result.created, images, usage: result.usage ?? null }, io.stdoutIsTTY));
  } else if (made && preview !== 'none') {
    // One contact sheet for the variants, each labelled with its number and seed.
    const { showContactSheet } = await import('../preview/contact-sheet.js');
    const tiles = saved.map(({ path }, index) => ({ path, label: `${made[index]!.variant} · seed ${made[index]!.seed}` }));
    await showContactSheet(io, tiles, { choice: preview, label: 'the variants', ...(job.probe === false ? { probe: false } : {}) });
    for (const { revisedPrompt } of saved) writeRevisedPrompt(io, revisedPrompt);
  } else {
    for (const { path, revisedPrompt } of saved) {
      if (preview !== 'none') {
        const { showPreview } = await import('../preview/show.js');
        await showPreview(io, { path }, { choice: preview, label: shownPath(io.cwd, path), ...(job.probe === false ? { probe: false } : {}) });
      }
      writeRevisedPrompt(io, revisedPrompt);
    }
  }
  saved.forEach(({ path, bytes, size }, index) => {
    const seed = seeds?.[index];
    const dims = size ? `${size.width}×${size.height}, ` : '';
    io.say(`saved ${shownPath(io.cwd, path)} (${seed === undefined ? '' : `seed ${seed}, `}${dims}${formatBytes(bytes)})`);
  });
  if (plan.open) {
    const { openInViewer } = await import('./open-viewer.js');
    for (const { path } of saved) await openInViewer(io, path, shownPath(io.cwd, path));
  }
  // A variant that failed: the others are saved above; its failure is the command's.
  if (variants?.failure !== undefined) throw signal.aborted ? new InterruptedError() : variants.failure;
  return saved;
}
