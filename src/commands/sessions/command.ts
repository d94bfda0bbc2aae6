/** `svc sessions list|show|search|fork|rename|export|delete`: the saved conversations. */
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { yesOption } from '../deletion.js';

/** Declared here, not imported from export.ts: that module loads only when the command runs. */
const EXPORT_FORMATS = ['md', 'html', 'json'] as const;

interface FilterOptions {
  limit?: string;
  since?: string;
  model?: string;
}

/** -n, --since and --model, the same on list and search (checked when the command runs: exit 2 naming the value). */
const limitOption = () => new Option('-n, --limit <count>', 'only the newest N (most recently changed); search stops reading once N have matched');
const sinceOption = () => new Option('--since <when>', 'only those changed since then: 30m, 12h, 2d, 1w back, or a date (2026-11-01, UTC)');
const modelOption = () => completes(new Option('--model <id>', 'only those with a reply from this model'), { kind: 'models' });

export function sessionsCommand(context: CommandContext): Command {
  const load = () => import('./run.js');
  const sessions = new Command('sessions')
    .summary('list, show, search, fork, rename, export or delete saved conversations')
    .description(
      'Saved conversations, kept in $XDG_DATA_HOME/svc/conversations (default ~/.local/share/svc). Where a command reads one ' +
        '(show, fork, rename, export), a beginning of its name that no other name shares is enough.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc sessions list\n  $ svc sessions search "rate limit"\n  $ svc sessions show work --json > work.json\n  $ svc sessions fork work work-b --at 2\n' +
        '  $ svc sessions rename work work-old\n  $ svc sessions export work-old -o work.md\n  $ svc sessions delete work-old',
    );
  const filterOf = async (options: FilterOptions) => (await import('../../conversations/filter.js')).filterFrom({ n: options.limit, since: options.since, model: options.model });
  sessions
    .command('list')
    .alias('ls')
    .description('Newest first: name, last change, turns, first line. On a terminal a table with a header; in a pipe one tab-separated line each, no header.')
    .addOption(limitOption())
    .addOption(sinceOption())
    .addOption(modelOption())
    .option('--json', 'print a JSON array instead')
    .option('--usage', 'add a tokens column (and the cost, with prices set: svc config set prices.MODEL IN/OUT)')
    // What shell completion asks (completion/*.ts): each name and its first line; not for people.
    .addOption(new Option('--for-completion').hideHelp())
    .addHelpText('after', '\nExamples:\n  $ svc sessions list -n 20\n  $ svc sessions list --usage\n  $ svc sessions list --since 2d --model svc-mini\n  $ svc sessions list --since 2026-11-01 --json | jq -r \'.[].name\'')
    .action(async (options: FilterOptions & { json?: boolean; usage?: boolean; forCompletion?: boolean }) => {
      const list = await import('../conversation-list.js');
      if (options.forCompletion === true) return list.runCompletionList(context.factory);
      return list.runList(context.factory, options.json === true, await filterOf(options), options.usage === true);
    });
  sessions
    .command('show')
    .description('Print a conversation as a transcript, or its messages array with --json. Without NAME: the one changed last.')
    .addArgument(completes(new Argument('[name]', 'conversation name, or a beginning of it no other name shares (see `svc sessions list`)'), { kind: 'sessions' }))
    .option('--json', 'the messages array, as the service expects it')
    .option('--all', 'also the turns dropped by /undo, /retry and /rewind, marked "dropped", where they happened')
    .option('--usage', "each reply's tokens, and the conversation's total (with its cost, when prices are set)")
    .addHelpText('after', '\nExamples:\n  $ svc sessions show\n  $ svc sessions show work\n  $ svc sessions show work --all\n  $ svc sessions show work --json | jq length')
    .action(async (name: string | undefined, options: { json?: boolean; all?: boolean; usage?: boolean }) => (await load()).runShow(context.factory, name, options));
  sessions
    .command('fork')
    .description(
      'Copy a conversation into a new one, whole or up to a turn, to go on from there differently; the original is ' +
        'never changed. Prints the new name on stdout. Without NEW the name is NAME-fork (then NAME-fork-2, ...).',
    )
    .addArgument(completes(new Argument('<name>', 'the conversation to copy, or a beginning of its name no other name shares'), { kind: 'sessions' }))
    .argument('[new]', 'the name of the copy (it must not exist yet)')
    .addOption(new Option('--at <turn>', 'copy turns 1 to TURN only (default: all of them)'))
    .addHelpText('after', '\nExamples:\n  $ svc sessions fork work\n  $ svc sessions fork work work-b --at 3\n  $ svc chat --session "$(svc sessions fork work)" "now try it in Go"')
    .action(async (name: string, newName: string | undefined, options: { at?: string }) => (await load()).runFork(context.factory, name, newName, options));
  sessions
    .command('search')
    .description(
      'Find the conversations whose messages contain the text (case-insensitive), newest first. On a terminal: a table ' +
        '(name, last change, matching lines), each row followed by up to 3 matching lines, indented, with who said ' +
        'them and the match highlighted. In a pipe: every matching line whole, as NAME:TURN:ROLE: line (turn 0 is the ' +
        'system message). Exit 1 when nothing is found (as grep).',
    )
    .argument('<text...>', 'what to look for (several words are one text, spaces included)')
    .addOption(limitOption())
    .addOption(sinceOption())
    .addOption(modelOption())
    .option('--json', 'print a JSON array instead: [{name, updated, turns, matches: [{turn, role, line, index}]}]')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc sessions search "rate limit"\n  $ svc sessions search docker compose --json | jq -r \'.[].name\'\n' +
        '  $ svc sessions search -n 20 --since 1w retry\n  $ svc sessions search timeout | cut -d: -f1 | sort -u',
    )
    .action(async (words: string[], options: FilterOptions & { json?: boolean }) =>
      (await import('./search.js')).runSearch(context.factory, words, { json: options.json === true, filter: await filterOf(options) }),
    );
  sessions
    .command('export')
    .description('Write a conversation as Markdown (a heading per message: who, the model, the time; /image images linked), as one self-contained HTML page (images embedded), or as the messages array the service expects.')
    .addArgument(completes(new Argument('<name>', 'conversation name, or a beginning of it no other name shares (see `svc sessions list`)'), { kind: 'sessions' }))
    .addOption(completes(new Option('--format <format>', 'md, html or json (default: from the -o extension, else md)').choices(EXPORT_FORMATS), EXPORT_FORMATS))
    .addOption(completes(new Option('-o, --output <file>', 'write to this file (whole or not at all; - for stdout, the default)'), { kind: 'files' }))
    .option('--force', 'replace the file if it exists')
    .addOption(completes(new Option('--with-images <dir>', 'Markdown: copy the images into this folder and link them there (relative to the export)'), { kind: 'files' }))
    .addHelpText('after', '\nExamples:\n  $ svc sessions export work -o work.md\n  $ mkdir -p share && svc sessions export work -o share/work.md --with-images share/images\n  $ svc sessions export work -o work.html        # one file: images embedded, readable offline\n  $ svc sessions export work --format json | jq length')
    .action(async (name: string, options: { format?: string; output?: string; force?: boolean; withImages?: string }) => (await import('./export.js')).runExport(context.factory, name, options));
  sessions
    .command('rename')
    .description('Give a conversation another name (its file moves, keeping its time and place in the list). NEW must not be taken.')
    .addArgument(completes(new Argument('<old>', 'conversation name, or a beginning of it no other name shares'), { kind: 'sessions' }))
    .argument('<new>', 'the new name (letters, digits, ".", "-" and "_")')
    .addHelpText('after', '\nExamples:\n  $ svc sessions rename work notes\n  $ svc chat --session notes "go on from here"')
    .action(async (oldName: string, newName: string) => (await load()).runRename(context.factory, oldName, newName));
  sessions
    .command('delete')
    .alias('rm')
    .description('Delete saved conversations (whole names only). On a terminal it asks first; --yes does not ask, and a script is never asked.')
    .addArgument(completes(new Argument('<name...>', 'conversation name(s)'), { kind: 'sessions' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc sessions delete work\n  $ svc sessions rm work-fork work-b --yes')
    .action(async (names: string[], options: { yes?: boolean }) => (await load()).runDelete(context.factory, names, options.yes));
  return sessions;
}
