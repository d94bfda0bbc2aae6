/**
 * `svc image "prompt"`: parse, check the target, then the shared image job (image-job.ts): ask,
 * decode straight to temporary files, check, save; stdout gets the revised prompts (or the image
 * itself with -o -, or --json); stderr says what was saved where.
 */
import type { Factory } from '../../factory.js';
import { printDryRun } from '../dry-run.js';
import { buildRequest, generateAndSave, previewChoice } from '../image-job.js';
import { parseImageOptions } from '../image-options.js';
import { isFolder, prepareTarget } from '../image-target.js';
import { settingFlagsFrom } from '../setting-flags.js';
import type { ImageFlags } from './flags.js';

export async function runImage(words: string[], flags: ImageFlags, factory: Factory, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const plan = parseImageOptions({ words, ...flags }, (path) => isFolder(io.cwd, path));
  const settings = await factory.settings({ ...settingFlagsFrom(flags, 'imageModel'), preview: flags.preview });
  if (flags.dryRun === true) {
    // Nothing is written either: the output target is checked by a real run only.
    printDryRun(io, settings, 'images/generations', buildRequest(plan, settings.imageModel.value), false);
    return;
  }
  const preview = previewChoice(io, plan, settings, flags.preview);
  const target = prepareTarget(io, plan);
  const client = await factory.apiClient(settings);
  await generateAndSave(io, plan, { client, model: settings.imageModel.value, preview, target, signal });
}
