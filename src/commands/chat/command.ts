/**
 * `svc chat`: declared here (cheap, for --help); the work is loaded only when it runs.
 */
import type { CommandContext } from '../context.js';
import { declareChatCommand } from './flags.js';

const EXAMPLES = `
Examples:
  $ svc chat "why is the sky blue?"
  $ git diff --staged | svc chat "write a one-line commit message"
  $ svc chat -t 0 --no-stream --json "list three primes" | jq -r '.choices[0].message.content'
  $ svc chat                       # an interactive session (on a terminal)
  $ cat notes.md | svc chat -i     # the notes first, then keep talking
  $ svc chat --continue "and in Python?"
  $ svc chat -f app.log -f 'src/**/*.ts' "why does this crash?"   # files after the words
  $ svc chat --role shell "find files over 1 GB"                     # just the command
  $ git diff --staged | svc chat --role commit
  $ svc chat --dry-run -t 0 "hello"   # the request as a curl command; nothing sent
  $ svc chat --raw "a bash loop over files"   # on a terminal: the Markdown as sent
  $ svc chat -x "a bash script that counts lines" > count.sh    # only the code blocks on stdout
  $ svc chat --param seed=7 --param response_format.type=json_object "three colours as JSON"
  $ echo "good morning" | svc chat --role translate --var lang=French   # fill the role's {{lang}}
  $ svc chat --usage "short answer"   # token counts (and cost: svc config set prices.MODEL IN/OUT)

The prompt is the words, then each -f file as a fenced block labelled with its path, then
piped stdin, separated by blank lines. A file must be UTF-8 text of at most 1 MiB (4 MiB for
all of them); a quoted glob (*, ?, **, {a,b}) is expanded by svc. The reply goes to stdout;
spinner, warnings and errors go to stderr. With no prompt on a terminal, svc chat opens an
interactive session (/help inside lists its commands). Conversations are saved in
$XDG_DATA_HOME/svc/conversations unless --no-save.

On a terminal the reply is rendered as it streams (Markdown: headings, lists, tables,
highlighted code). In a pipe or a file it is exactly the service's text, and --json is never
rendered. --raw, SVC_RENDER=raw or \`svc config set render raw\` print the text as sent on a
terminal too.`;

export function chatCommand(context: CommandContext) {
  const command = declareChatCommand().addHelpText('after', EXAMPLES);
  command.action(async (words, flags) => {
    if (flags.list === true) {
      const { runList } = await import('../conversation-list.js');
      return runList(context.factory, false);
    }
    const { runChat } = await import('./run.js');
    await runChat(words, flags, context);
  });
  return command;
}
