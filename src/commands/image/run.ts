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
import { UsageError } from '../../core/errors.js';

/** An image file's name, as `svc image info` and `again` take them. */
const IMAGE_FILE = /\.(png|jpe?g|webp)$/i;

/**
 * `svc image info FILE...` and `svc image again FILE`: only when every word after them names an
 * image file, so a prompt that starts with "info" or "again" is still a prompt.
 */
function fileCommand(words: string[]): { command: 'info' | 'again'; files: string[] } | undefined {
  const [first, ...files] = words;
  if ((first !== 'info' && first !== 'again') || files.length === 0 || !files.every((file) => IMAGE_FILE.test(file))) return undefined;
  if (first === 'again' && files.length !== 1) throw new UsageError('svc image again takes one file', { hint: 'svc image again fox.png --seed 7' });
  return { command: first, files };
}

export async function runImage(words: string[], givenFlags: ImageFlags, factory: Factory, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const special = fileCommand(words);
  if (special?.command === 'info') {
    const { runImageInfo } = await import('./info.js');
    runImageInfo(factory, special.files, givenFlags.json === true);
    return;
  }
  let flags = givenFlags;
  if (special?.command === 'again') {
    const { againRequest } = await import('./again.js');
    ({ words, flags } = againRequest(io, special.files[0]!, givenFlags));
  }
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
  plan.metadata = flags.metadata !== false && settings.imageMetadata.value === 'on';
  await generateAndSave(io, plan, { client, model: settings.imageModel.value, preview, target, signal });
}
