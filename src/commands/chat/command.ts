/**
 * `svc chat`: declared here (cheap, for --help); the work is loaded only when it runs.
 */
import { Command, Option } from 'commander';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { addConnectionOptions, collect, settingFlagsFrom } from '../setting-flags.js';

const EXAMPLES = `
Examples:
  $ svc chat "why is the sky blue?"
  $ git diff --staged | svc chat "write a one-line commit message"
  $ svc chat -t 0 --no-stream --json "list three primes" | jq -r '.choices[0].message.content'
  $ svc chat                       # an interactive session (on a terminal)
  $ cat notes.md | svc chat -i     # the notes first, then keep talking
  $ svc chat --continue "and in Python?"

The prompt is the words, then piped stdin after a blank line. The reply goes to stdout;
spinner, warnings and errors go to stderr. With no prompt on a terminal, svc chat opens an
interactive session (/help inside lists its commands). Conversations are saved in
$XDG_DATA_HOME/svc/conversations unless --no-save.`;

export function chatCommand(context: CommandContext): Command {
  const command = new Command('chat')
    .summary('ask a question (one-shot) or chat')
    .description('Send a prompt to the chat model and stream the reply to stdout.')
    .argument('[prompt...]', 'the prompt; piped stdin is appended after a blank line')
    .option('-m, --model <id>', 'chat model (env SVC_MODEL; default svc-pro)')
    .option('-s, --system <text>', 'system message sent before the prompt')
    .option('--max-tokens <n>', 'most tokens in the reply (whole number, 1 or more)')
    .option('-t, --temperature <0..2>', 'randomness from 0 to 2 (service default 1)')
    .option('--top-p <0..1>', 'nucleus sampling from 0 to 1 (service default 1)')
    .option('--stop <text>', 'stop the reply at this text (repeatable, up to 4 times)', collect)
    .option('--presence-penalty <-2..2>', 'penalise tokens already present, -2 to 2')
    .option('--frequency-penalty <-2..2>', 'penalise frequent tokens, -2 to 2')
    .option('--user <id>', 'end-user id passed to the service for tracking')
    .option('--no-stream', 'wait for the whole reply instead of streaming it')
    .option('--json', 'print the whole completion as JSON (service-api.md 2.2) instead of text')
    .option('--usage', 'print token counts to stderr')
    .option('--no-stdin', 'never read stdin, even when it is a pipe')
    .option('-i, --interactive', 'after the prompt (words or piped stdin), go on talking from the terminal')
    .option('-c, --continue', 'continue the conversation changed last')
    .addOption(completes(new Option('--session <name>', 'continue the conversation of this name (created if new)'), { kind: 'sessions' }))
    .option('--no-save', 'keep nothing: no saved conversation, no input history')
    .option('--list', 'list saved conversations (same as `svc sessions list`)');
  addConnectionOptions(command).addHelpText('after', EXAMPLES);
  command.action(async (words: string[], options: Record<string, unknown>) => {
    if (options.list === true) {
      const { runList } = await import('../sessions/run.js');
      return runList(context.factory, false);
    }
    const { runChat } = await import('./run.js');
    await runChat(
      {
        words,
        system: options.system as string | undefined,
        maxTokens: options.maxTokens as string | undefined,
        temperature: options.temperature as string | undefined,
        topP: options.topP as string | undefined,
        stop: options.stop as string[] | undefined,
        presencePenalty: options.presencePenalty as string | undefined,
        frequencyPenalty: options.frequencyPenalty as string | undefined,
        user: options.user as string | undefined,
        stream: options.stream !== false,
        json: options.json === true,
        usage: options.usage === true,
        stdin: options.stdin !== false,
        interactive: options.interactive === true,
        continueLatest: options.continue === true,
        sessionName: options.session as string | undefined,
        save: options.save !== false,
        settings: settingFlagsFrom(options, 'model'),
      },
      context,
    );
  });
  return command;
}
