/**
 * `svc chat`: its flags, checked into a plan (options.ts) before stdin is read or anything is
 * sent (exit 2, nothing sent); then the chat itself, one answer or the interactive session
 * (start.ts), loaded only when it runs. The flags' types (ChatFlags) are inferred from their
 * declaration (@commander-js/extra-typings), so no value is cast and a new flag is typed where it
 * is declared.
 */
import { Command, Option } from '@commander-js/extra-typings';
import { checkConversationName, parseRoleName } from '../../core/names.js';
import { UsageError } from '../../core/errors.js';
import { parseRequestFields, rawFieldsOfFlags } from '../../chat/request-fields.js';
import { CHAT_OWNED, parseParams } from '../../core/request-params.js';
import { parseVars } from '../../roles/template.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { addConnectionOptions, addRequestFieldOptions, collect, settingFlagsFrom } from '../setting-flags.js';
import type { ChatPlan, ConversationChoice } from './options.js';
import { parseToolFlags } from './tool-flags.js';
import { IMAGE_DETAILS } from '../../api/content-parts.js';

const EXAMPLES = `
Examples:
  $ svc chat "why is the sky blue?"
  $ git diff --staged | svc chat "write a one-line commit message"
  $ svc chat -t 0 --no-stream --json "list three primes" | jq -r '.choices[0].message.content'
  $ svc chat                       # an interactive session (on a terminal)
  $ cat notes.md | svc chat -i     # the notes first, then keep talking
  $ svc chat --continue "and in Python?"
  $ svc chat --continue --compact                # summarise all but the last 2 turns (the summary on stdout)
  $ svc chat --continue --compact "go on"        # compact, then send the message
  $ svc chat -f app.log -f 'src/**/*.ts' "why does this crash?"   # files after the words
  $ svc chat -f photo.jpg "what is in this picture?"               # an image, for a model that takes them
  $ svc chat --role shell "find files over 1 GB"                     # just the command
  $ git diff --staged | svc chat --role commit
  $ svc chat --dry-run -t 0 "hello"   # the request as a curl command; nothing sent
  $ svc chat --raw "a bash loop over files"   # on a terminal: the Markdown as sent
  $ svc chat -x "a bash script that counts lines" > count.sh    # only the code blocks on stdout
  $ svc chat --param seed=7 --param response_format.type=json_object "three colours as JSON"
  $ echo "good morning" | svc chat --role translate --var lang=French   # fill the role's {{lang}}
  $ svc chat --usage "short answer"   # token counts (and cost: svc config set prices.MODEL IN/OUT)
  $ svc chat --tools notes --allow 'notes.*' "read the text file todo.txt"   # an MCP server's tools (svc mcp add)

The prompt is the words, then each -f file as a fenced block labelled with its path, then
piped stdin, separated by blank lines. A file must be UTF-8 text of at most 1 MiB (4 MiB for
all of them); a quoted glob (*, ?, **, {a,b}) is expanded by svc. A PNG, JPEG, WebP or GIF file
(told by its bytes, at most 20 MiB) goes as an image after the text, scaled down to
imageInputMax pixels (2048) on its long side when larger; -f https://... sends the address. The reply goes to stdout;
spinner, warnings and errors go to stderr. With no prompt on a terminal, svc chat opens an
interactive session (/help inside lists its commands). Conversations are saved in
$XDG_DATA_HOME/svc/conversations unless --no-save.

On a terminal the reply is rendered as it streams (Markdown: headings, lists, tables,
highlighted code). In a pipe or a file it is exactly the service's text, and --json is never
rendered. --raw, SVC_RENDER=raw or \`svc config set render raw\` print the text as sent on a
terminal too.

--tools offers the tools of a server added with \`svc mcp add\`: on a terminal each call is
shown and asked about (y, a for always, n); without one only what --allow names runs, and a
call declined is exit 7.`;

export function declareChatCommand() {
  const command = new Command('chat')
    .summary('ask a question (one-shot) or chat')
    .description('Send a prompt to the chat model and stream the reply to stdout.')
    .argument('[prompt...]', 'the prompt; piped stdin is appended after a blank line')
    .addOption(completes(new Option('-m, --model <id>', 'chat model (env SVC_MODEL; default svc-pro)'), { kind: 'models' }))
    .option('-s, --system <text>', 'system message sent before the prompt')
    .addOption(completes(new Option('-f, --file <path>', "attach a file's text after the words, or an image (PNG, JPEG, WebP, GIF, or an http(s) address); repeatable, a quoted glob such as 'src/*.ts' is expanded by svc").argParser(collect), { kind: 'files' }))
    .addOption(new Option('--image-detail <level>', 'how closely the model looks at the images of -f: low, high or auto').choices(IMAGE_DETAILS))
    .option('--var <name=value>', "fill the role's {{name}} blanks (repeatable; {{input}} is the prompt itself)", collect)
    .addOption(completes(new Option('--role <name>', 'use a saved role: its system message and defaults (flags given beat it; see `svc roles list`)'), { kind: 'roles' }));
  const withFields = addRequestFieldOptions(command)
    .option('--no-stream', 'wait for the whole reply instead of streaming it')
    .option('--json', "print the whole completion as JSON (the service's chat.completion object) instead of text")
    .option('-x, --extract', "print only the answer's fenced code blocks to stdout, joined by a blank line (the answer itself goes to stderr on a terminal)")
    .option('--extract-last', 'as --extract, the last code block only')
    .option('--raw', 'on a terminal, print the reply as sent instead of rendering its Markdown (env SVC_RENDER=raw)')
    .option('--usage', 'print token counts to stderr (in the session: after each reply)')
    .option('--show-reasoning', "in a pipe, copy the model's reasoning text to stderr (on a terminal it is shown dim above the answer; never on stdout)")
    .option('--no-stdin', 'never read stdin, even when it is a pipe')
    .option('-i, --interactive', 'after the prompt (words or piped stdin), go on talking from the terminal')
    .option('-c, --continue', 'continue the conversation changed last')
    .addOption(completes(new Option('--session <name>', 'continue the conversation of this name (created if new)'), { kind: 'sessions' }))
    .option('--compact', 'with --continue or --session: first have the model summarise all but its last 2 turns (printed), sent in their place from then on')
    .option('--no-save', 'keep nothing: no saved conversation, no input history')
    .option('--list', 'list saved conversations (same as `svc sessions list`)')
    .option('--dry-run', 'send nothing: print the request as a curl command (the key written as $SVC_API_KEY)')
    .option('--param <key=value>', 'add a field to the request body: VALUE as JSON, else a string; dotted keys make objects (repeatable)', collect)
    .addOption(completes(new Option('--tools <name>', "offer an MCP server's tools to the model (NAME), or one of them (NAME.TOOL); repeatable").argParser(collect), { kind: 'mcp-servers' }))
    .option('--no-tools', "offer no tools, not even the role's or the profile's")
    .addOption(completes(new Option('--allow <tool>', 'let NAME.TOOL (NAME.* for all of its tools) run without asking; repeatable. Without a terminal, nothing else runs').argParser(collect), { kind: 'mcp-servers' }))
    .option('--max-steps <n>', 'at most N requests for one reply while the model calls tools (default 10)');
  return addConnectionOptions(withFields);
}

/** The values commander collected for `svc chat`'s flags. */
export type ChatFlags = ReturnType<ReturnType<typeof declareChatCommand>['opts']>;

export function chatCommand(context: CommandContext) {
  return declareChatCommand()
    .addHelpText('after', EXAMPLES)
    .action(async (words, flags) => {
      if (flags.list === true) {
        const { runList } = await import('../conversation-list.js');
        return runList(context.factory, false);
      }
      await runChat(words, flags, context);
    });
}

/**
 * Every flag is checked, then the chat loads: the role and the files are read before stdin is
 * read or anything is sent (exit 2, nothing sent).
 */
export async function runChat(words: string[], flags: ChatFlags, context: CommandContext): Promise<void> {
  const plan = parseChatOptions(words, flags);
  const { startChat } = await import('./start.js');
  await startChat(plan, context);
}

/** `svc chat` flags → a ChatPlan, checked and converted once. Pure, so a table test covers it. */
export function parseChatOptions(words: string[], flags: ChatFlags): ChatPlan {
  const fields = parseRequestFields(rawFieldsOfFlags(flags));
  const conversation: ConversationChoice = { continueLatest: flags.continue === true, sessionName: flags.session, save: flags.save };
  checkConversationChoice(conversation);
  const interactive = flags.interactive === true;
  const json = flags.json === true;
  if (interactive && json) throw new UsageError('--json is for one-shot answers, not the interactive session');
  const dryRun = flags.dryRun === true;
  if (dryRun && interactive) throw new UsageError('--dry-run prints one request: give the prompt, not -i');
  const compact = flags.compact === true;
  if (compact) checkCompact(conversation, { interactive, dryRun });
  const extract = extractChoice(flags, { interactive, json });
  return {
    words,
    fields,
    system: flags.system,
    stream: flags.stream,
    json,
    usage: flags.usage === true,
    showReasoning: flags.showReasoning === true,
    stdin: flags.stdin,
    interactive,
    conversation,
    settings: { ...settingFlagsFrom(flags, 'model'), render: flags.raw === true ? 'raw' : undefined },
    files: flags.file ?? [],
    ...(flags.imageDetail === undefined ? {} : { imageDetail: flags.imageDetail }),
    role: flags.role === undefined ? undefined : parseRoleName(flags.role, '--role'),
    dryRun,
    ...(compact ? { compact } : {}),
    params: parseParams(flags.param ?? [], CHAT_OWNED),
    tools: parseToolFlags(flags),
    ...(extract ? { extract } : {}),
    ...(flags.var ? { vars: parseVars(flags.var) } : {}),
  };
}

/** --extract / --extract-last: which blocks, checked against the flags they cannot go with. */
function extractChoice(flags: ChatFlags, mode: { interactive: boolean; json: boolean }): 'all' | 'last' | undefined {
  const extract = flags.extractLast === true ? 'last' : flags.extract === true ? 'all' : undefined;
  if (extract === undefined) return undefined;
  const flag = extract === 'last' ? '--extract-last' : '--extract';
  if (mode.interactive) throw new UsageError(`${flag} is for one-shot answers; in the session, /copy code copies the last reply's code`);
  if (mode.json) throw new UsageError(`${flag} and --json cannot be used together: --json prints the whole completion`);
  return extract;
}

/** --compact: a saved conversation to compact, and a run that sends (one-shot; the session has /compact). */
function checkCompact(choice: ConversationChoice, mode: { interactive: boolean; dryRun: boolean }): void {
  if (!choice.continueLatest && choice.sessionName === undefined) {
    throw new UsageError('--compact compacts a saved conversation: add --continue (the one changed last) or --session NAME', { hint: 'svc chat --continue --compact' });
  }
  if (mode.interactive) throw new UsageError('--compact is for one-shot runs; in the session, /compact [N] does it', { hint: 'svc chat --continue, then /compact' });
  if (mode.dryRun) throw new UsageError('--compact and --dry-run cannot be used together: a compaction is a request of its own, and the dry run prints one');
}

function checkConversationChoice(choice: ConversationChoice): void {
  if (choice.continueLatest && choice.sessionName !== undefined) {
    throw new UsageError('--continue and --session cannot be used together');
  }
  if (choice.sessionName !== undefined) checkConversationName(choice.sessionName);
}
