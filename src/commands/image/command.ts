/** `svc image`: declared here (cheap, for --help); the work is loaded only when it runs. */
import { Command, Option } from 'commander';
import { completes } from '../completion-hints.js';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../images/formats.js';
import { PREVIEW_CHOICES } from '../../preview/choices.js';
import type { CommandContext } from '../context.js';
import { addConnectionOptions, settingFlagsFrom } from '../setting-flags.js';

const EXAMPLES = `
Examples:
  $ svc image "a lighthouse at dusk" --aspect 16:9 -o lighthouse.png
  $ svc image "a red fox in snow" --format webp --seed 42
  $ svc image "an owl, ink drawing" -o - > owl.png         # the bytes to stdout
  $ svc image "a harbour at dawn" -o shots/                 # into a folder, named from the prompt
  $ svc image "a city at night" --json | jq -r '.images[0].path'
  $ svc image "a koi pond" --preview blocks                 # preview in coloured half blocks
  $ svc image "a koi pond" --open                           # save, then open in the system viewer

The revised prompt goes to stdout (one line per image); what was saved where goes to stderr.
Without -o (or with -o a folder) the file is named from the prompt, never overwriting.
-o - refuses to write image bytes to a terminal unless --force.
On a terminal the saved image is shown first: with kitty's or iTerm2's protocol where the
terminal has one, sixel where it says it draws them, else half blocks (inside tmux or screen,
half blocks unless --preview names a protocol). Never in a pipe, with --json or with -o -.`;

export function imageCommand(context: CommandContext): Command {
  const command = new Command('image')
    .summary('generate an image from a prompt')
    .description('Generate an image, save it, and print the revised prompt the service used.')
    .argument('<prompt...>', 'what the image should show')
    .addOption(completes(new Option('-o, --output <path>', 'file to write (.png, .jpg, .jpeg, .webp), a folder to save in, or - for stdout; default: named from the prompt'), { kind: 'files' }))
    .addOption(completes(new Option('--aspect <ratio>', `aspect ratio: ${ASPECT_RATIOS.join(', ')} (service default 1:1)`), ASPECT_RATIOS))
    .addOption(completes(new Option('--format <format>', `image format: ${IMAGE_FORMATS.join(', ')} (default: from -o, else png)`), IMAGE_FORMATS))
    .option('--seed <n>', 'seed for a reproducible image (whole number 0 to 4294967295)')
    .option('--negative <text>', 'what must not appear in the image')
    .option('-m, --model <id>', 'image model (env SVC_IMAGE_MODEL; default svc-vision)')
    .addOption(completes(new Option('--preview <how>', `preview on a terminal: ${PREVIEW_CHOICES.join(', ')} (env SVC_PREVIEW; default auto)`), PREVIEW_CHOICES))
    .option('--open', "open the saved file in the system's viewer (xdg-open, open, start)")
    .option('--force', 'replace an existing file')
    .option('--json', 'print {created, images: [{path, revised_prompt, bytes}], usage} instead');
  addConnectionOptions(command).addHelpText('after', EXAMPLES);
  command.action(async (words: string[], options: Record<string, unknown>) => {
    const { runImage } = await import('./run.js');
    await runImage(
      {
        words,
        aspect: options.aspect as string | undefined,
        format: options.format as string | undefined,
        seed: options.seed as string | undefined,
        negative: options.negative as string | undefined,
        output: options.output as string | undefined,
        force: options.force === true,
        json: options.json === true,
        open: options.open === true,
        settings: { ...settingFlagsFrom(options, 'imageModel'), preview: options.preview as string | undefined },
      },
      context.factory,
      context.signal,
    );
  });
  return command;
}
