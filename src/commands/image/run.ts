/**
 * `svc image "prompt"` (and `svc image again`, which makes its prompt and flags from a file):
 * parse, check the target, then the shared image job (image-job.ts): ask, decode straight to
 * temporary files, check, save; stdout gets the revised prompts (or the image itself with -o -,
 * or --json); stderr says what was saved where.
 */
import type { Factory } from '../../factory.js';
import { printDryRun } from '../dry-run.js';
import { buildRequest, generateAndSave, previewChoice } from '../image-job.js';
import { parseImageOptions } from '../image-options.js';
import { isFolder, prepareTarget } from '../image-target.js';
import { settingFlagsFrom } from '../setting-flags.js';
import type { ImageFlags } from './flags.js';

export interface ImageRun {
  /** `svc image again FILE` without -o: saved beside FILE, named after it (image-target.ts). */
  beside?: string | undefined;
}

export async function runImage(words: string[], flags: ImageFlags, factory: Factory, signal: AbortSignal, run: ImageRun = {}): Promise<void> {
  const { io } = factory;
  const plan = parseImageOptions({ words, ...flags }, (path) => isFolder(io.cwd, path));
  if (run.beside !== undefined && flags.output === undefined) plan.output = { kind: 'beside', path: run.beside };
  const settings = await factory.settings({ ...settingFlagsFrom(flags, 'imageModel'), preview: flags.preview });
  if (flags.dryRun === true) {
    // Nothing is written either: the output target is checked by a real run only.
    printDryRun(io, settings, 'images/generations', buildRequest(plan, settings.imageModel.value), false);
    return;
  }
  const preview = previewChoice(io, plan, settings, flags.preview);
  const target = prepareTarget(io, plan);
  const client = await factory.apiClient(settings);
  plan.metadata = flags.metadata !== false && settings.imageMetadata.value === 'on';
  await generateAndSave(io, plan, { client, model: settings.imageModel.value, preview, target, signal });
}
