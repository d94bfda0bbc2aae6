/**
 * The flags of `svc batch`, declared once: commander reads them from here, and their types
 * (BatchFlags) are inferred from this declaration (@commander-js/extra-typings). The chat request
 * flags are the ones `svc chat` declares (addRequestFieldOptions): here they give defaults.
 */
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../api/images/formats.js';
import { completes } from '../completion-hints.js';
import { addConnectionOptions, addRequestFieldOptions, collect } from '../setting-flags.js';

export function declareBatchCommand() {
  const command = new Command('batch')
    .summary('run a file of requests (OpenAI Batch JSONL), concurrent and resumable')
    .description('Send every request of a JSONL file (or every line of --prompts) and write one result line per request.')
    .addArgument(completes(new Argument('[input]', 'JSONL file of requests, or - for stdin'), { kind: 'files' }))
    .addOption(completes(new Option('--prompts <file>', 'one chat prompt per non-empty line (- for stdin); custom_id is line-<n>'), { kind: 'files' }))
    .addOption(completes(new Option('-o, --output <file>', 'results file (appended to; a rerun skips what it holds); default stdout'), { kind: 'files' }))
    .option('--concurrency <n>', 'requests in flight at once, 1 to 64 (default 4)')
    .option('--retry-failed', 'with -o an existing file: send again the requests that failed there')
    .addOption(completes(new Option('--images-dir <dir>', 'where images are saved (default: beside -o, else the current folder)'), { kind: 'files' }))
    .addOption(completes(new Option('-m, --model <id>', 'chat model (env SVC_MODEL; default svc-pro); image requests use SVC_IMAGE_MODEL'), { kind: 'models' }))
    .option('-s, --system <text>', 'system message for chat requests that have none');
  const withFields = addRequestFieldOptions(command, 'each reply')
    .addOption(completes(new Option('--aspect <ratio>', `image aspect ratio: ${ASPECT_RATIOS.join(', ')}`), ASPECT_RATIOS))
    .addOption(completes(new Option('--format <format>', `image format: ${IMAGE_FORMATS.join(', ')} (default png)`), IMAGE_FORMATS))
    .option('--seed <n>', 'image seed (whole number 0 to 4294967295)')
    .option('--negative <text>', 'what must not appear in the images')
    .addOption(completes(new Option('--role <name>', "a saved role for chat requests: its system message (unless a line has one), model, defaults and prompt template (for --prompts lines)"), { kind: 'roles' }))
    .option('--var <name=value>', "fill the role's {{name}} blanks (repeatable; with --prompts, {{input}} is each line)", collect)
    .option('--no-metadata', 'save images as the service sent them: no prompt, model or seed written into the files')
    .option('--json', 'with -o: also print the closing summary as one JSON object on stdout (counts, tokens, cost)')
    .option('-x, --extract', "give each chat result an extract field: the answer's fenced code blocks, joined by a blank line (null when none)")
    .option('--extract-last', 'as --extract, the last code block only')
    .option('--dry-run', 'check every line, send nothing: print each request a run would send as a curl command')
    .option('--param <key=value>', "add a field to every request's body unless the line sets it: VALUE as JSON, else a string (repeatable)", collect);
  return addConnectionOptions(withFields);
}

/** The values commander collected for `svc batch`'s flags. */
export type BatchFlags = ReturnType<ReturnType<typeof declareBatchCommand>['opts']>;
