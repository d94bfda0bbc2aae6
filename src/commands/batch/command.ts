/** `svc batch`: declared here (cheap, for --help); the work is loaded only when it runs. */
import { Argument, Command, Option } from 'commander';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../images/formats.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { addConnectionOptions, collect, settingFlagsFrom } from '../setting-flags.js';

const EXAMPLES = `
Examples:
  $ svc batch requests.jsonl -o results.jsonl
  $ svc batch requests.jsonl -o results.jsonl            # again after Ctrl-C: finishes the rest
  $ svc batch requests.jsonl -o results.jsonl --retry-failed
  $ svc batch --prompts questions.txt -t 0 -o answers.jsonl --concurrency 8
  $ jq -c '{custom_id: .id, method: "POST", url: "/v1/chat/completions",
      body: {messages: [{role: "user", content: .text}]}}' items.json | svc batch - > out.jsonl

Input: JSONL in the OpenAI Batch format, one request a line:
  {"custom_id": "q1", "method": "POST", "url": "/v1/chat/completions",
   "body": {"messages": [{"role": "user", "content": "Hello"}], "temperature": 0}}
  (url /v1/images/generations: "body": {"prompt": "...", "aspect_ratio": "16:9"})
Every line is checked before anything is sent. Output: one line a request, as each finishes,
{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}; images are
saved as <images-dir>/<custom_id>.<ext> and their body has "path" instead of "b64_json".
The flags give defaults; a request's own field wins. With -o an existing file, requests it
holds a successful line for are skipped. Exit 0 all succeeded, 1 some failed (each recorded),
2 bad input, 3 key refused, 130 interrupted (finished lines are kept).`;

export function batchCommand(context: CommandContext): Command {
  const command = new Command('batch')
    .summary('run a file of requests (OpenAI Batch JSONL), concurrent and resumable')
    .description('Send every request of a JSONL file (or every line of --prompts) and write one result line per request.')
    .addArgument(completes(new Argument('[input]', 'JSONL file of requests, or - for stdin'), { kind: 'files' }))
    .addOption(completes(new Option('--prompts <file>', 'one chat prompt per non-empty line (- for stdin); custom_id is line-<n>'), { kind: 'files' }))
    .addOption(completes(new Option('-o, --output <file>', 'results file (appended to; a rerun skips what it holds); default stdout'), { kind: 'files' }))
    .option('--concurrency <n>', 'requests in flight at once, 1 to 64 (default 4)')
    .option('--retry-failed', 'with -o an existing file: send again the requests that failed there')
    .addOption(completes(new Option('--images-dir <dir>', 'where images are saved (default: beside -o, else the current folder)'), { kind: 'files' }))
    .option('-m, --model <id>', 'chat model (env SVC_MODEL; default svc-pro); image requests use SVC_IMAGE_MODEL')
    .option('-s, --system <text>', 'system message for chat requests that have none')
    .option('--max-tokens <n>', 'most tokens in each reply (whole number, 1 or more)')
    .option('-t, --temperature <0..2>', 'randomness from 0 to 2')
    .option('--top-p <0..1>', 'nucleus sampling from 0 to 1')
    .option('--stop <text>', 'stop each reply at this text (repeatable, up to 4 times)', collect)
    .option('--presence-penalty <-2..2>', 'penalise tokens already present, -2 to 2')
    .option('--frequency-penalty <-2..2>', 'penalise frequent tokens, -2 to 2')
    .option('--user <id>', 'end-user id passed to the service')
    .addOption(completes(new Option('--aspect <ratio>', `image aspect ratio: ${ASPECT_RATIOS.join(', ')}`), ASPECT_RATIOS))
    .addOption(completes(new Option('--format <format>', `image format: ${IMAGE_FORMATS.join(', ')} (default png)`), IMAGE_FORMATS))
    .option('--seed <n>', 'image seed (whole number 0 to 4294967295)')
    .option('--negative <text>', 'what must not appear in the images');
  addConnectionOptions(command).addHelpText('after', EXAMPLES);
  command.action(async (input: string | undefined, options: Record<string, unknown>) => {
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const { runBatch } = await import('./run.js');
    await runBatch(
      {
        input,
        prompts: text(options.prompts),
        output: text(options.output),
        concurrency: text(options.concurrency),
        imagesDir: text(options.imagesDir),
        retryFailed: options.retryFailed === true,
        system: text(options.system),
        maxTokens: text(options.maxTokens),
        temperature: text(options.temperature),
        topP: text(options.topP),
        stop: options.stop as string[] | undefined,
        presencePenalty: text(options.presencePenalty),
        frequencyPenalty: text(options.frequencyPenalty),
        user: text(options.user),
        aspect: text(options.aspect),
        format: text(options.format),
        seed: text(options.seed),
        negative: text(options.negative),
        settings: settingFlagsFrom(options, 'model'),
      },
      context,
    );
  });
  return command;
}
