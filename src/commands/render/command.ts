/** `svc render`: Markdown on stdin rendered for the terminal as it arrives (src/render). */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';

export function renderCommand(context: CommandContext) {
  return new Command('render')
    .summary('render Markdown from stdin for the terminal, as it arrives')
    .description(
      'Show Markdown from standard input rendered as it arrives: headings, emphasis,\n' +
        'lists, quotes, links, aligned tables and highlighted code, with words wrapped\n' +
        'to the terminal. When stdout is not a terminal, the input is copied to it\n' +
        'unchanged, byte for byte.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc chat "compare three sorting algorithms in a table" | svc render\n' +
        '  $ some-llm-tool "explain closures" | svc render\n  $ svc render < notes.md\n\n' +
        'Environment:\n  NO_COLOR   no colours (bold, italic and underline stay);  FORCE_COLOR   colours anyway\n' +
        '  FORCE_HYPERLINK=1|0   clickable links (OSC 8) on or off, whatever the terminal',
    )
    .action(async () => {
      const { runRender } = await import('./run.js');
      await runRender(context.factory.io, context.signal);
    });
}
