/**
 * The flags of `svc chat`, declared once: commander reads them from here, and their types
 * (ChatFlags) are inferred from this declaration (@commander-js/extra-typings), so no value is
 * cast and a new flag is typed where it is declared.
 */
import { Command, Option } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import { addRequestFieldOptions } from '../request-flags.js';
import { addConnectionOptions, collect } from '../setting-flags.js';

export function declareChatCommand() {
  const command = new Command('chat')
    .summary('ask a question (one-shot) or chat')
    .description('Send a prompt to the chat model and stream the reply to stdout.')
    .argument('[prompt...]', 'the prompt; piped stdin is appended after a blank line')
    .addOption(completes(new Option('-m, --model <id>', 'chat model (env SVC_MODEL; default svc-pro)'), { kind: 'models' }))
    .option('-s, --system <text>', 'system message sent before the prompt')
    .addOption(completes(new Option('-f, --file <path>', "attach a file's text after the words (repeatable; a quoted glob such as 'src/*.ts' is expanded by svc)").argParser(collect), { kind: 'files' }))
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
    .option('--no-save', 'keep nothing: no saved conversation, no input history')
    .option('--list', 'list saved conversations (same as `svc sessions list`)')
    .option('--dry-run', 'send nothing: print the request as a curl command (the key written as $SVC_API_KEY)')
    .option('--param <key=value>', 'add a field to the request body: VALUE as JSON, else a string; dotted keys make objects (repeatable)', collect)
    .option('--tools <name>', "offer an MCP server's tools to the model (NAME), or one of them (NAME.TOOL); repeatable", collect)
    .option('--no-tools', "offer no tools, not even the role's or the profile's")
    .option('--allow <tool>', 'let NAME.TOOL (NAME.* for all of its tools) run without asking; repeatable. Without a terminal, nothing else runs', collect)
    .option('--max-steps <n>', 'at most N requests for one reply while the model calls tools (default 10)');
  return addConnectionOptions(withFields);
}

/** The values commander collected for `svc chat`'s flags. */
export type ChatFlags = ReturnType<ReturnType<typeof declareChatCommand>['opts']>;
