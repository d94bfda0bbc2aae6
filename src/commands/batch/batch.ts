/**
 * `svc batch`: its flags, checked before anything is read or sent (exit 2); then the batch itself
 * (send.ts), loaded only when it runs. The chat and image flags are checked by the same parsers as
 * on `svc chat` and `svc image`; they become the defaults of every request that does not set the
 * field itself. The flags' types (BatchFlags) are inferred from their declaration
 * (@commander-js/extra-typings); the chat request flags are the ones `svc chat` declares.
 */
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../api/images/formats.js';
import { parseRequestFields, rawFieldsOfFlags } from '../../chat/request-fields.js';
import { CHAT_OWNED, IMAGE_OWNED, parseParams } from '../../core/request-params.js';
import { UsageError } from '../../core/errors.js';
import { parseIntegerInRange } from '../../core/parse-values.js';
import { parseRoleName } from '../../core/names.js';
import { parseVars } from '../../roles/template.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { parseImageOptions } from '../image-options.js';
import { addConnectionOptions, addRequestFieldOptions, collect, settingFlagsFrom } from '../setting-flags.js';
import type { InputFormat } from './input.js';
import type { BatchPlan } from './send.js';

const EXAMPLES = `
Examples:
  $ svc batch requests.jsonl -o results.jsonl
  $ svc batch requests.jsonl -o results.jsonl            # again after Ctrl-C: finishes the rest
  $ svc batch requests.jsonl -o results.jsonl --retry-failed
  $ svc batch --prompts questions.txt -t 0 -o answers.jsonl --concurrency 8
  $ svc batch requests.jsonl --dry-run | head -n 20    # the requests as curl commands, none sent
  $ svc batch --prompts words.txt --role translate --var lang=German -o out.jsonl   # each line is {{input}}
  $ svc batch requests.jsonl -o out.jsonl -x --json | jq .usage   # code in an extract field; the summary as JSON
  $ jq -c '{custom_id: .id, method: "POST", url: "/v1/chat/completions",
      body: {messages: [{role: "user", content: .text}]}}' items.json | svc batch - > out.jsonl

Input: JSONL in the OpenAI Batch format, one request a line:
  {"custom_id": "q1", "method": "POST", "url": "/v1/chat/completions",
   "body": {"messages": [{"role": "user", "content": "Hello"}], "temperature": 0}}
  (url /v1/images/generations: "body": {"prompt": "...", "aspect_ratio": "16:9"})
Every line is checked before anything is sent. Output: one line a request, as each finishes
(so in the order they finish, not the input's: match them by custom_id),
{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}; images are
saved as <images-dir>/<custom_id>.<ext> and their body has "path" instead of "b64_json".
The flags give defaults; a request's own field wins. With -o an existing file, requests it
holds a successful line for are skipped. Exit 0 all succeeded, 1 some failed (each recorded),
2 bad input, 3 key refused, 130 interrupted (finished lines are kept).`;

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

export function batchCommand(context: CommandContext) {
  return declareBatchCommand()
    .addHelpText('after', EXAMPLES)
    .action((input, flags) => runBatch(input, flags, context));
}

export async function runBatch(input: string | undefined, flags: BatchFlags, context: CommandContext): Promise<void> {
  const plan = parseBatchFlags(input, flags);
  const { sendBatch } = await import('./send.js');
  await sendBatch(plan, context);
}

export const DEFAULT_CONCURRENCY = 4;
/**
 * More in flight than this rarely helps (a service's rate limit comes first) and opens as many
 * connections; the bound keeps a typo (--concurrency 4000) from becoming a flood.
 */
export const MAX_CONCURRENCY = 64;

/** `svc batch` flags → what to run, checked before anything is read or sent (exit 2). */
export function parseBatchFlags(input: string | undefined, flags: BatchFlags): BatchPlan {
  if (input !== undefined && flags.prompts !== undefined) throw new UsageError('give a requests file or --prompts, not both');
  const name = input ?? flags.prompts;
  if (name === undefined || name === '') {
    throw new UsageError('no input: name a JSONL file of requests, or --prompts with a file of prompts (- for stdin)', { hint: 'svc batch requests.jsonl -o results.jsonl' });
  }
  const format: InputFormat = flags.prompts !== undefined ? 'prompts' : 'requests';
  const imageFlag = (['aspect', 'format', 'seed', 'negative'] as const).find((flag) => flags[flag] !== undefined);
  if (format === 'prompts' && imageFlag !== undefined) throw new UsageError(`--${imageFlag} is for image requests, and --prompts makes chat requests`);
  if (flags.output === '') throw new UsageError('-o must name a file, or - for stdout');
  if (flags.json === true && (flags.output === undefined || flags.output === '-')) {
    throw new UsageError('--json prints the summary on stdout, where the results go without -o: give -o FILE', { hint: 'svc batch in.jsonl -o results.jsonl --json' });
  }
  if (flags.imagesDir === '') throw new UsageError('--images-dir must name a folder');
  const concurrency = flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseIntegerInRange(flags.concurrency, '--concurrency', 1, MAX_CONCURRENCY);
  const chatFields = parseRequestFields(rawFieldsOfFlags(flags));
  const image = parseImageOptions({ words: ['batch'], aspect: flags.aspect, format: flags.format, seed: flags.seed, negative: flags.negative });
  return {
    input: { name, format },
    output: flags.output === '-' ? undefined : flags.output,
    concurrency,
    imagesDir: flags.imagesDir,
    retryFailed: flags.retryFailed === true,
    chatFields,
    settings: settingFlagsFrom(flags, 'model'),
    system: flags.system,
    image: { aspect: image.aspect, format: flags.format === undefined ? undefined : image.format, seed: image.seed, negative: image.negative },
    dryRun: flags.dryRun === true,
    params: parseParams(flags.param ?? [], { ...CHAT_OWNED, ...IMAGE_OWNED }),
    extract: flags.extractLast === true ? 'last' : flags.extract === true ? 'all' : undefined,
    json: flags.json === true,
    metadata: flags.metadata !== false,
    role: flags.role === undefined ? undefined : parseRoleName(flags.role, '--role'),
    vars: parseVars(flags.var ?? []),
  };
}
