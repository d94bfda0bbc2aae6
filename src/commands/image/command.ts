/**
 * `svc image`, and its `info` and `again` subcommands: declared here (cheap, for --help); the
 * work is loaded only when it runs. A prompt is never taken for a subcommand: commander picks
 * `info` or `again` only when it is the whole first word, so `svc image "info graphic of a bee"`
 * (quoted) is still a prompt, and the unquoted words after `info` are refused as file names.
 */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { UsageError } from '../../core/errors.js';
import { addImageOptions, declareImageCommand, type ImageFlags } from './flags.js';

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

const INFO_EXAMPLES = `
Examples:
  $ svc image info lighthouse.png
  $ svc image info *.png --json | jq -r '.[] | "\\(.seed) \\(.path)"'`;

const AGAIN_EXAMPLES = `
Examples:
  $ svc image again lighthouse.png                 # a new seed, saved as lighthouse-2.png
  $ svc image again lighthouse.png --seed 8 --aspect 1:1 -o square.png`;

function infoCommand(context: CommandContext) {
  return new Command('info')
    .summary('show the prompt, model and seed saved in image files')
    .description('Print the provenance svc wrote into each image (prompt, revised prompt, negative prompt, model, seed, aspect), with the format, pixel size and bytes read from the file. Exit 1 when a file has none; exit 2, nothing read, when a name is not an image file.')
    .argument('<file...>', 'image files svc saved (.png, .jpg, .jpeg, .webp)')
    .option('--json', 'print a JSON array, one object a file')
    .addHelpText('after', INFO_EXAMPLES)
    .action(async (files, flags, command) => {
      const { checkImageFileNames, runImageInfo } = await import('./info.js');
      checkImageFileNames('info', files);
      // Commander reads image's --json wherever it is on the line: it is image's, not info's.
      runImageInfo(context.factory, files, flags.json === true || command.parent?.opts().json === true);
    });
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
      const { checkImageFileNames } = await import('./info.js');
      checkImageFileNames('again', self.args);
      if (self.args.length > 1) throw new UsageError('svc image again takes one file', { hint: `svc image again ${file} --seed 7` });
      // Commander reads image's flags wherever they are on the line (`svc image again x.png --seed 3`
      // and `svc image --seed 3 again x.png` alike), so they are image's; any of again's own beat them.
      const flags = { ...(self.parent?.opts() ?? {}), ...own } as ImageFlags;
      const { againRequest } = await import('./again.js');
      const { runImage } = await import('./run.js');
      const again = againRequest(context.factory.io, file, flags);
      await runImage(again.words, again.flags, context.factory, context.signal, { beside: file });
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
  command.action(async (words, flags) => {
    const { runImage } = await import('./run.js');
    await runImage(words, flags, context.factory, context.signal);
  });
  command.addCommand(infoCommand(context));
  command.addCommand(againCommand(context));
  return command;
}
