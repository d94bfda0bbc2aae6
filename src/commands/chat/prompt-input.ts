/**
 * The user message of a one-shot chat: prompt words, then the files of -f, then piped stdin,
 * each after a blank line (docs/chat.md, the convention of mods and llm).
 */
import { composeMessage, type Prompt } from '../../attachments/message.js';
import type { AttachedFile } from '../../attachments/read.js';
import type { ImageDetail } from '../../api/content-parts.js';
import { InterruptedError } from '../../core/errors.js';
import type { IO } from '../../terminal/io.js';
import { asBytes } from '../../terminal/streams.js';

/** Only a pipe or a file is read: a terminal would wait for typing, /dev/null gives nothing. */
export function stdinHasInput(io: IO, readStdin: boolean): boolean {
  return readStdin && (io.stdinKind === 'pipe' || io.stdinKind === 'file');
}

/** How long a pipe may stay silent, when words were given too, before svc says what it waits for. */
export const QUIET_STDIN_NOTICE_MS = 3000;

/**
 * The piped text of a chat prompt. Stops with InterruptedError on `signal` (Ctrl-C, SIGTERM).
 * When words were given and the pipe has sent nothing for a while, it is most likely a pipe
 * the script inherited and never closes (a `while read` loop, a CI runner): say so on stderr,
 * once, with the way out, rather than wait in silence.
 */
export async function readPipedPrompt(io: IO, words: string[], signal: AbortSignal, noticeMs = QUIET_STDIN_NOTICE_MS): Promise<string> {
  const pieces: Buffer[] = [];
  let received = false;
  const timer = words.length > 0
    ? setTimeout(() => {
      if (!received) io.note('still waiting for stdin to end (words were given too); if nothing is coming, pass --no-stdin or </dev/null');
    }, noticeMs)
    : undefined;
  // Ctrl-C while waiting: the stream is not destroyed (it is the process's stdin), only left.
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new InterruptedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    const iterator = (io.stdin as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) break;
      received = true;
      pieces.push(asBytes(next.value));
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(pieces).toString('utf8');
}

/** Words, attached files (-f) and stdin, in that order; an empty text means there is no prompt. */
export function composeUserMessage(words: string[], files: readonly AttachedFile[], stdinText: string | undefined, detail?: ImageDetail): Prompt {
  const fromWords = words.join(' ').trim();
  const fromStdin = (stdinText ?? '').replace(/^\uFEFF/, '').replace(/\s+$/, '');
  return composeMessage(fromWords, files, fromStdin.trim() === '' ? '' : fromStdin, detail);
}

/**
 * The message of a chat: the words, the files already read, then stdin when it is a pipe or a
 * file; its text is '' when there is none of them.
 */
export async function readPrompt(io: IO, options: { words: string[]; stdin: boolean; imageDetail?: ImageDetail | undefined }, files: readonly AttachedFile[], signal: AbortSignal): Promise<Prompt> {
  // Files count as a prompt given: a pipe that never closes is then worth a notice too.
  const given = [...options.words, ...files.map((file) => file.name)];
  return composeUserMessage(options.words, files, stdinHasInput(io, options.stdin) ? await readPipedPrompt(io, given, signal) : undefined, options.imageDetail);
}
