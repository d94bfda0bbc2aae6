/**
 * `svc sessions search <text>`: the saved conversations that mention something, with the lines
 * (conversations/search.ts, loaded when it runs). Its -n, --since and --model are list's too.
 */
import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { describeFilter, filterFrom, type ConversationFilter } from '../../conversations/filter.js';
import type { SearchHit } from '../../conversations/search.js';
import { conversationStoreFor } from '../../conversations/store.js';
import { SilentExit, UsageError } from '../../core/errors.js';
import { jsonForOutput } from '../../core/json.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import { colorWanted } from '../../terminal/io.js';
import { LineOutput } from '../../terminal/streams.js';
import { tableLines, terminalWidth } from '../../terminal/table.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

/** -n, --since and --model as commander collects them. */
export interface FilterFlags {
  limit?: string;
  since?: string;
  model?: string;
}

/** -n, --since and --model, the same on list and search (checked when the command runs: exit 2 naming the value). */
export function filterOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return command
    .addOption(new Option('-n, --limit <count>', 'only the newest N (most recently changed); search stops reading once N have matched'))
    .addOption(new Option('--since <when>', 'only those changed since then: 30m, 12h, 2d, 1w back, or a date (2026-11-01, UTC)'))
    .addOption(completes(new Option('--model <id>', 'only those with a reply from this model'), { kind: 'models' }));
}

/** The filter the flags describe; a usage error naming a value that is not one. */
export function filterOf(flags: FilterFlags): ConversationFilter {
  return filterFrom({ n: flags.limit, since: flags.since, model: flags.model });
}

/** Lines shown per conversation on a terminal (a pipe and --json have them all). */
const SHOWN_LINES = 3;
/** How a match stands out: bold red, as grep --color shows it; then back to normal. */
const HIGHLIGHT_ON = '\u001b[1;31m';
const HIGHLIGHT_OFF = '\u001b[22;39m';

/** `line` as shown: each piece neutralised for a terminal (when it is one), matches highlighted when colour is wanted. */
type Show = (line: string) => string;

/**
 * On a terminal: a table of the conversations found (name, last change, matching lines), each row
 * followed by up to 3 of its matching lines, indented, around the match.
 */
function hitTable(hits: readonly SearchHit[], show: Show, width: number | undefined, lineInContext: (line: string, index: number) => string): string {
  const columns = [{ title: 'NAME' }, { title: 'CHANGED' }, { title: 'MATCHES', align: 'right' } as const];
  const [header, ...rows] = tableLines(columns, hits.map((hit) => [hit.name, hit.updated.slice(0, 16).replace('T', ' '), String(hit.matches.length)]), { width });
  const lines = [header!];
  hits.forEach((hit, index) => {
    const count = hit.matches.length;
    lines.push(rows[index]!);
    for (const match of hit.matches.slice(0, SHOWN_LINES)) lines.push(`  ${match.role}: ${show(lineInContext(match.line, match.index))}`);
    if (count > SHOWN_LINES) lines.push(`  … ${count - SHOWN_LINES} more (svc sessions show ${hit.name})`);
  });
  return `${lines.join('\n')}\n`;
}

/** In a pipe: every matching line whole, as grep -n gives it: `NAME:TURN:ROLE: line` (turn 0 is the system message). */
function hitLines(hit: SearchHit, show: Show): string {
  return hit.matches.map((match) => `${hit.name}:${match.turn}:${match.role}: ${show(match.line)}`).join('\n');
}

export interface SearchOptions {
  json: boolean;
  filter?: ConversationFilter;
}

/** `svc sessions search`, declared beside its run. */
export function searchCommand(context: CommandContext) {
  return filterOptions(
    new Command('search')
      .description(
        'Find the conversations whose messages contain the text (case-insensitive), newest first. On a terminal: a table ' +
          '(name, last change, matching lines), each row followed by up to 3 matching lines, indented, with who said ' +
          'them and the match highlighted. In a pipe: every matching line whole, as NAME:TURN:ROLE: line (turn 0 is the ' +
          'system message). Exit 1 when nothing is found (as grep).',
      )
      .argument('<text...>', 'what to look for (several words are one text, spaces included)'),
  )
    .option('--json', 'print a JSON array instead: [{name, updated, turns, matches: [{turn, role, line, index}]}]')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc sessions search "rate limit"\n  $ svc sessions search docker compose --json | jq -r \'.[].name\'\n' +
        '  $ svc sessions search -n 20 --since 1w retry\n  $ svc sessions search timeout | cut -d: -f1 | sort -u',
    )
    .action((words, flags) => runSearch(context.factory, words, { json: flags.json === true, filter: filterOf(flags) }));
}

export async function runSearch(factory: Factory, words: string[], options: SearchOptions): Promise<void> {
  const { io } = factory;
  const filter = options.filter ?? {};
  const text = words.join(' ');
  if (text.trim() === '') throw new UsageError('nothing to search for', { hint: 'svc sessions search <text>' });
  if (text.includes('\n')) throw new UsageError('the search text is one line: lines are searched one by one');
  const store = conversationStoreFor(io);
  const highlight = colorWanted(io.env, io.stdoutIsTTY);
  const { lineInContext, matchSplitter, searchConversations, searchEach } = await import('../../conversations/search.js');
  const split = matchSplitter(text);
  // Without highlighting the line needs no cutting up (in a pipe: 50,000 lines for a common word).
  const show: Show = !highlight
    ? (line) => forOutput(line, io.stdoutIsTTY)
    : (line) =>
        split(line)
          .map((piece) => {
            const clean = forOutput(piece.text, io.stdoutIsTTY);
            return piece.match ? `${HIGHLIGHT_ON}${clean}${HIGHLIGHT_OFF}` : clean;
          })
          .join('');
  let found = 0;
  if (options.json) {
    const hits = searchConversations(store, text, filter);
    found = hits.length;
    io.stdout.write(jsonForOutput(hits, io.stdoutIsTTY));
  } else if (io.stdoutIsTTY) {
    // A table needs every row to know its column widths: the whole search first, then the
    // table, newest first (as --json gives them).
    const hits = searchConversations(store, text, filter);
    found = hits.length;
    if (found > 0) io.stdout.write(hitTable(hits, show, terminalWidth(io.stdout), lineInContext));
  } else {
    // Each conversation printed as it is found: a reader that has had enough (`| head`) stops
    // the search, instead of it reading every file for lines nobody will see.
    const out = new LineOutput(io.stdout);
    for (const hit of searchEach(store, text, filter)) {
      found += 1;
      if (!(await out.add(`${hitLines(hit, show)}\n`))) break;
    }
    await out.close();
  }
  if (found === 0) {
    // As grep: exit 1 when nothing is found, so a script can test for it.
    io.say(`no saved conversation${describeFilter(filter)} contains "${text}"`);
    throw new SilentExit(1);
  }
}
