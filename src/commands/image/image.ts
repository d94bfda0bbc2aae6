/**
 * `svc image PROMPT` and `svc image again FILE` (`svc image info` is info.ts): their flags, their
 * declaration (cheap, for --help) and their run function, whose work (image-job.ts) is loaded
 * only when it runs. `again` is `svc image` with its words and flags read from FILE: the same
 * flags, the same run, so the same module.
 *
 * A prompt is never taken for a subcommand: commander picks `info` or `again` only when it is the
 * whole first word, so `svc image "info graphic of a bee"` (quoted) is still a prompt, and the
 * unquoted words after `info` are refused as file names (info.ts, checkImageFileNames).
 */
import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { ASPECT_RATIOS, IMAGE_FORMATS, randomSeed } from '../../api/images/formats.js';
import { SvcError, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { PREVIEW_CHOICES } from '../../settings/definitions.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { addConnectionOptions, collect, settingFlagsFrom } from '../setting-flags.js';
import { checkImageFileNames, factsOf, infoCommand, noRecordMessage } from './info.js';

const EXAMPLES = `
Examples:
  $ svc image "a lighthouse at dusk" --aspect 16:9 -o lighthouse.png
  $ svc image "a red fox in snow" --format webp --seed 42
  $ svc image "an owl, ink drawing" -o - > owl.png         # the bytes to stdout
  $ mkdir -p shots && svc image "a harbour at dawn" -o shots/   # into a folder, named from the prompt
  $ svc image "a city at night" --json | jq -r '.images[0].path'
  $ svc image "a koi pond" --preview blocks                 # preview in coloured half blocks
  $ svc image "a koi pond" --open                           # save, then open in the system viewer
  $ svc image "a red fox" --seed 7 --dry-run                # the request as a curl command, not sent
  $ svc image info lighthouse.png                           # the prompt, model and seed saved in the file
  $ svc image again lighthouse.png --seed 8                 # the same request again: lighthouse-2.png

The revised prompt goes to stdout (one line per image); what was saved where goes to stderr.
Without -o (or with -o a folder) the file is named from the prompt, never overwriting.
-o - refuses to write image bytes to a terminal unless --force.
On a terminal the saved image is shown first: with kitty's or iTerm2's protocol where the
terminal has one, sixel where it says it draws them, else half blocks (inside tmux or screen,
half blocks unless --preview names a protocol). Never in a pipe, with --json or with -o -.
Each saved file carries its prompt, model and seed as XMP metadata (--no-metadata: the bytes as sent);
\`svc image info\` and \`svc image again\` read it back. A prompt that starts with "info" or
"again" is quoted: svc image "info graphic of a bee".`;

const AGAIN_EXAMPLES = `
Examples:
  $ svc image again lighthouse.png                 # a new seed, saved as lighthouse-2.png
  $ svc image again lighthouse.png --seed 8 --aspect 1:1 -o square.png`;

/** The request, output and connection flags of an image command. */
function addImageOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
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

function declareImageCommand() {
  const command = new Command('image')
    .summary('generate an image from a prompt')
    .description('Generate an image, save it, and print the revised prompt the service used.')
    .argument('<prompt...>', 'what the image should show (quote it when it starts with "info" or "again")');
  return addImageOptions(command);
}

/** The values commander collected for `svc image`'s flags (and `svc image again`'s). */
type ImageFlags = ReturnType<ReturnType<typeof declareImageCommand>['opts']>;

/**
 * `svc image`: plan, check the target, then the shared image job (image-job.ts): ask, decode
 * straight to temporary files, check, save; stdout gets the revised prompts (or the image itself
 * with -o -, or --json); stderr says what was saved where. `beside`: `svc image again FILE`
 * without -o saves beside FILE, named after it.
 */
async function runImage(words: string[], flags: ImageFlags, factory: Factory, signal: AbortSignal, beside?: string): Promise<void> {
  const { io } = factory;
  const job = await import('../image-job.js');
  const plan = job.planImage(io, { words, ...flags }, beside);
  const settings = await factory.settings({ ...settingFlagsFrom(flags, 'imageModel'), preview: flags.preview });
  if (flags.dryRun === true) {
    // Nothing is written either: the output target is checked by a real run only.
    job.printImageDryRun(io, settings, plan);
    return;
  }
  const { preview, target } = job.prepareImage(io, plan, settings, flags.preview);
  const client = await factory.apiClient(settings);
  plan.metadata = flags.metadata !== false && settings.imageMetadata.value === 'on';
  await job.generateAndSave(io, plan, { client, model: settings.imageModel.value, preview, target, signal });
}

/**
 * `svc image again FILE [--seed N]`: the request that made FILE, read from the provenance in it,
 * sent again: the same prompt, negative prompt, model, aspect ratio and format, with a new seed
 * unless --seed gives one (so the new image can be remade too), saved beside FILE under its name
 * and the next free number (`out.png` → `out-2.png`), never over anything. The flags of
 * `svc image` still apply (-o, -m, --json, --preview) and beat what the file says.
 */
async function runAgain(file: string, flags: ImageFlags, factory: Factory, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const facts = await factsOf(io.cwd, file);
  const record = facts.record;
  if (!record) throw new SvcError(noRecordMessage(file, facts), { hint: 'svc image again needs a file svc saved with its metadata' });
  const seed = flags.seed ?? String(randomSeed());
  if (flags.seed === undefined) io.note(`again with a new seed, ${seed} (--seed ${record.seed ?? 'N'} asks for the same one)`);
  io.note(`prompt: ${record.prompt}`);
  const again: ImageFlags = {
    ...flags,
    seed,
    model: flags.model ?? record.model,
    aspect: flags.aspect ?? record.aspectRatio,
    format: flags.format ?? (record.format || undefined),
    negative: flags.negative ?? record.negativePrompt,
  };
  await runImage([record.prompt], again, factory, signal, file);
}

function againCommand(context: CommandContext) {
  const command = new Command('again')
    .summary('make an image again from the request saved in it')
    .description(
      'Send the request that made FILE again (its prompt, negative prompt, model, aspect ratio and format, read from the ' +
        'metadata svc saved in it) with a new seed unless --seed gives one, and save the image beside FILE as FILE-2, FILE-3… ' +
        '(never over anything) unless -o says where. The flags of svc image apply and beat what the file says.',
    )
    .argument('<file>', 'an image file svc saved (.png, .jpg, .jpeg, .webp)');
  return addImageOptions(command)
    .addHelpText('after', AGAIN_EXAMPLES)
    .action(async (file, own, self) => {
      checkImageFileNames('again', self.args);
      if (self.args.length > 1) throw new UsageError('svc image again takes one file', { hint: `svc image again ${file} --seed 7` });
      // Commander reads image's flags wherever they are on the line (`svc image again x.png --seed 3`
      // and `svc image --seed 3 again x.png` alike), so they are image's; any of again's own beat them.
      await runAgain(file, { ...(self.parent?.opts() ?? {}), ...own } as ImageFlags, context.factory, context.signal);
    });
}

export function imageCommand(context: CommandContext) {
  const command = declareImageCommand()
    .addHelpText('after', EXAMPLES)
    // Extra words after `again FILE` are refused by svc itself, with the way to quote a prompt
    // (checkImageFileNames), not by commander. Set as it runs: program.ts copies commander's
    // settings from the root to every subcommand once they are all declared.
    .hook('preSubcommand', (_image, sub) => {
      if (sub.name() === 'again') sub.allowExcessArguments();
    });
  command.action((words, flags) => runImage(words, flags, context.factory, context.signal));
  command.addCommand(infoCommand(context));
  command.addCommand(againCommand(context));
  return command;
}
