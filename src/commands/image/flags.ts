/**
 * The flags of `svc image` (and of `svc image again`, which takes them all), declared once:
 * commander reads them from here, and their types (ImageFlags) are inferred from this
 * declaration (@commander-js/extra-typings).
 */
import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../api/images/formats.js';
import { PREVIEW_CHOICES } from '../../settings/preview-choices.js';
import { completes } from '../completion-hints.js';
import { addConnectionOptions, collect } from '../setting-flags.js';

/** The request, output and connection flags of an image command. */
export function addImageOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  const withFlags = command
    .addOption(completes(new Option('-o, --output <path>', 'file to write (.png, .jpg, .jpeg, .webp), a folder to save in, or - for stdout; default: named from the prompt'), { kind: 'files' }))
    .addOption(completes(new Option('--aspect <ratio>', `aspect ratio: ${ASPECT_RATIOS.join(', ')} (service default 1:1)`), ASPECT_RATIOS))
    .addOption(completes(new Option('--format <format>', `image format: ${IMAGE_FORMATS.join(', ')} (default: from -o, else png)`), IMAGE_FORMATS))
    .option('--seed <n>', 'seed for a reproducible image (whole number 0 to 4294967295)')
    .option('-n, --count <n>', 'make N variants (1 to 8), one request each, seeds S, S+1… with --seed; saved as name-1, name-2…; one contact sheet on a terminal')
    .option('--negative <text>', 'what must not appear in the image')
    .addOption(completes(new Option('-m, --model <id>', 'image model (env SVC_IMAGE_MODEL; default svc-vision)'), { kind: 'models', use: 'image' }))
    .addOption(completes(new Option('--preview <how>', `preview on a terminal: ${PREVIEW_CHOICES.join(', ')} (env SVC_PREVIEW; default auto)`), PREVIEW_CHOICES))
    .option('--open', "open the saved file in the system's viewer (xdg-open, open, start)")
    .option('--force', 'replace an existing file')
    .option('--no-metadata', "save the bytes as the service sent them: no prompt, model or seed written into the file (setting imageMetadata)")
    .option('--json', 'print {created, images: [{path, revised_prompt, bytes, seed, width, height}], usage} instead')
    .option('--dry-run', 'send nothing and write nothing: print the request as a curl command (the key written as $SVC_API_KEY)')
    .option('--param <key=value>', 'add a field to the request body: VALUE as JSON, else a string; dotted keys make objects (repeatable)', collect);
  return addConnectionOptions(withFlags);
}

export function declareImageCommand() {
  const command = new Command('image')
    .summary('generate an image from a prompt')
    .description('Generate an image, save it, and print the revised prompt the service used.')
    .argument('<prompt...>', 'what the image should show (quote it when it starts with "info" or "again")');
  return addImageOptions(command);
}

/** The values commander collected for `svc image`'s flags. */
export type ImageFlags = ReturnType<ReturnType<typeof declareImageCommand>['opts']>;
