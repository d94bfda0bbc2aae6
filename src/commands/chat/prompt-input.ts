/**
 * The user message of a one-shot chat: prompt words, then piped stdin after a blank line
 * (cli.md "svc chat", the convention of mods and llm).
 */
import type { IO } from '../../io.js';

/** Only a pipe or a file is read: a terminal would wait for typing, /dev/null gives nothing. */
export function stdinHasInput(io: IO, readStdin: boolean): boolean {
  return readStdin && (io.stdinKind === 'pipe' || io.stdinKind === 'file');
}

export async function readAllText(stream: AsyncIterable<unknown>): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(typeof piece === 'string' ? Buffer.from(piece) : (piece as Buffer));
  return Buffer.concat(pieces).toString('utf8');
}

/** Join words and stdin; an empty result means there is no prompt. */
export function composePrompt(words: string[], stdinText: string | undefined): string {
  const fromWords = words.join(' ').trim();
  const fromStdin = (stdinText ?? '').replace(/^\uFEFF/, '').replace(/\s+$/, '');
  if (fromWords === '') return fromStdin.trim() === '' ? '' : fromStdin;
  if (fromStdin.trim() === '') return fromWords;
  return `${fromWords}\n\n${fromStdin}`;
}
