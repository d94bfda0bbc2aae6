/** `svc image`: declared here (cheap, for --help); the work is loaded only when it runs. */
import type { CommandContext } from '../context.js';
import { declareImageCommand } from './flags.js';

const EXAMPLES = `
Examples:
  $ svc image "a lighthouse at dusk" --aspect 16:9 -o lighthouse.png
  $ svc image "a red fox in snow" --format webp --seed 42
  $ svc image "an owl, ink drawing" -o - > owl.png         # the bytes to stdout
  $ svc image "a harbour at dawn" -o shots/                 # into a folder, named from the prompt
  $ svc image "a city at night" --json | jq -r '.images[0].path'
  $ svc image "a koi pond" --preview blocks                 # preview in coloured half blocks
  $ svc image "a koi pond" --open                           # save, then open in the system viewer
  $ svc image "a red fox" --seed 7 --dry-run                # the request as a curl command, not sent
  $ svc image info fox.png                                  # the prompt, model and seed saved in the file
  $ svc image again fox.png --seed 8                        # the same request again, saved beside it

The revised prompt goes to stdout (one line per image); what was saved where goes to stderr.
Without -o (or with -o a folder) the file is named from the prompt, never overwriting.
-o - refuses to write image bytes to a terminal unless --force.
On a terminal the saved image is shown first: with kitty's or iTerm2's protocol where the
terminal has one, sixel where it says it draws them, else half blocks (inside tmux or screen,
half blocks unless --preview names a protocol). Never in a pipe, with --json or with -o -.
Each saved file carries its prompt, model and seed as XMP metadata (--no-metadata: the bytes as sent).
\`svc image info FILE...\` and \`svc image again FILE\` read it back (when every word after them is an image file).`;

export function imageCommand(context: CommandContext) {
  const command = declareImageCommand().addHelpText('after', EXAMPLES);
  command.action(async (words, flags) => {
    const { runImage } = await import('./run.js');
    await runImage(words, flags, context.factory, context.signal);
  });
  return command;
}
