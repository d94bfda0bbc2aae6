/**
 * `svc batch --dry-run`: every line is checked as for a real run, and every request a real run
 * would send (those an earlier run's -o file holds a result for are skipped, as then) is printed
 * as a curl command under a `# custom_id` comment: the output is a shell script. All of them,
 * not a sample: a script can keep what it needs (`| head -n 20`), and a request left out could
 * be the one a bug report is about. Nothing is written, no key is read.
 */
import type { ResolvedSettings } from '../../factory.js';
import type { IO } from '../../terminal/io.js';
import { dryRunCommand, noteKeyVariable } from '../dry-run.js';
import { textWriter } from '../../terminal/streams.js';
import type { BatchRequest } from './requests.js';
import { escapeJsonForTerminal } from '../../core/json.js';

export async function printBatchDryRun(io: IO, settings: ResolvedSettings, requests: AsyncIterable<BatchRequest>): Promise<number> {
  const write = textWriter(io.stdout);
  let count = 0;
  for await (const request of requests) {
    if (io.stdout.destroyed) break; // the reader has left (| head)
    // The endpoints perform.ts posts to; batch bodies never stream (body-checks.ts).
    const endpoint = request.kind === 'chat' ? 'chat/completions' : 'images/generations';
    // JSON-quoted, so a custom_id with a newline cannot end the comment line.
    await write(`${count > 0 ? '\n' : ''}# custom_id: ${escapeJsonForTerminal(JSON.stringify(request.customId))}\n${dryRunCommand(settings, endpoint, request.body, false)}\n`);
    count++;
  }
  noteKeyVariable(io);
  return count;
}
