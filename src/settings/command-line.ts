/**
 * A keyCommand's text as words, checked when it is set (settings/definitions.ts) and split again
 * when it runs (key-command.ts). Apart from the running so that every command's settings can check
 * it without loading node:child_process, which only a command that spawns should pay for at start-up.
 */
import { UsageError } from '../core/errors.js';

/** The words of a command line: '…' literal, "…" with \\ escapes, \\ outside quotes; no expansion. */
export function splitCommandLine(text: string, source = 'keyCommand'): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[(i += 1)]!;
      else word += char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[(i += 1)]!;
    } else word = (word ?? '') + char;
  }
  if (quote) throw new UsageError(`${source}: the ${quote} is never closed`);
  if (word !== undefined) words.push(word);
  if (words.length === 0) throw new UsageError(`${source} is empty: give the command that prints the key`, { hint: 'svc config set keyCommand "pass show svc"' });
  return words;
}
