/** `svc batch`: declared here (cheap, for --help); the work is loaded only when it runs. */
import type { CommandContext } from '../context.js';
import { declareBatchCommand } from './flags.js';

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

export function batchCommand(context: CommandContext) {
  const command = declareBatchCommand().addHelpText('after', EXAMPLES);
  command.action(async (input, flags) => {
    const { runBatch } = await import('./run.js');
    await runBatch(input, flags, context);
  });
  return command;
}
