/**
 * What an existing output file says is done: every custom_id with a line in it, and whether any
 * of its lines succeeded (a rerun with --retry-failed appends a new line after a failed one).
 * Read a line at a time: only the ids are kept. A line cut short by a crash, or any other line that is
 * not a batch output record, is skipped and named once; the next line written starts fresh.
 */
import { isObject } from '../../core/json.js';
import type { LineProblem } from '../../storage/jsonl-file.js';
import { fileLines } from './lines.js';
import { MAX_CHAT_ANSWER_BYTES } from '../../api/limits.js';

export interface PreviousRun {
  /** custom_id → true when one of its lines succeeded. */
  outcomes: Map<string, boolean>;
  problems: LineProblem[];
}

/** Succeeded: an answer with a 2xx status and no error (the Batch output format's own rule). */
export function succeeded(record: Record<string, unknown>): boolean {
  const response = record.response;
  const status = isObject(response) ? response.status_code : undefined;
  return (record.error === null || record.error === undefined) && typeof status === 'number' && status >= 200 && status < 300;
}

export function readPreviousRun(path: string): PreviousRun {
  const outcomes = new Map<string, boolean>();
  const problems: LineProblem[] = [];
  // Output lines can hold a long completion: its line is bounded as the answer itself is.
  for (const line of fileLines(path, MAX_CHAT_ANSWER_BYTES)) {
    if ('tooLong' in line) {
      problems.push({ line: line.number, problem: 'longer than 64 MiB' });
      continue;
    }
    if (line.text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line.text);
    } catch {
      problems.push({ line: line.number, problem: 'not complete JSON' });
      continue;
    }
    if (!isObject(record) || typeof record.custom_id !== 'string') {
      problems.push({ line: line.number, problem: 'not a batch output record' });
      continue;
    }
    outcomes.set(record.custom_id, outcomes.get(record.custom_id) === true || succeeded(record));
  }
  return { outcomes, problems };
}
