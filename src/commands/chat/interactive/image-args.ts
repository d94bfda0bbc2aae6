/**
 * The text after `/image` → the same raw options `svc image` gets from commander, so one parser
 * (parseImageOptions) checks both. Pure, so a table test covers it.
 *
 * Words split on white space. A quote (' or ") at the start of a word groups up to the matching
 * quote at the end of a word: `--negative "blurry text"`, `-o "my pictures/"`. A quote inside a
 * word is just a letter (`a cat's hat`). An opening quote that never closes is a usage error that
 * names it, and nothing is sent: where the quoted words end would be a guess (`'tis the season`
 * is refused too, with the way out: close it, or leave the quotes out).
 */
import { UsageError } from '../../../core/errors.js';
import type { RawImageOptions } from '../../image-options.js';

/** The flags /image takes, with their long names; each takes a value. */
export const IMAGE_COMMAND_FLAGS = {
  '--aspect': 'aspect',
  '--format': 'format',
  '--seed': 'seed',
  '--negative': 'negative',
  '--output': 'output',
  '-o': 'output',
  '-n': 'count',
  '--count': 'count',
} as const;

type FlagName = keyof typeof IMAGE_COMMAND_FLAGS;
export type ImageCommandOptions = Pick<RawImageOptions, 'words' | 'aspect' | 'format' | 'seed' | 'negative' | 'output' | 'count'>;

/** Split `text` into words, honouring quotes as described above. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let index = 0;
  while (index < text.length) {
    while (index < text.length && /\s/.test(text[index]!)) index += 1;
    if (index >= text.length) break;
    const quote = text[index];
    if (quote === '"' || quote === "'") {
      // The closing quote is the first one followed by white space or the end.
      const close = new RegExp(`${quote}(?=\\s|$)`, 'g');
      close.lastIndex = index + 1;
      const match = close.exec(text);
      if (match) {
        words.push(text.slice(index + 1, match.index));
        index = match.index + 1;
        continue;
      }
      // A quote opened and never closed: the words after it would be guessed at. Nothing is sent.
      const after = text.slice(index + 1).trim();
      throw new UsageError(`the ${quote} before "${after.length > 30 ? `${after.slice(0, 30)}…` : after}" is never closed`, {
        hint: `close it (${quote}a red fox${quote}), or leave the quotes out: the words are the prompt`,
      });
    }
    const start = index;
    while (index < text.length && !/\s/.test(text[index]!)) index += 1;
    words.push(text.slice(start, index));
  }
  return words;
}

function isFlagName(word: string): word is FlagName {
  return Object.hasOwn(IMAGE_COMMAND_FLAGS, word);
}

/** A word that reads as an option (not "-", not a number like -5). */
function looksLikeOption(word: string): boolean {
  return /^--?[A-Za-z]/.test(word);
}

/** `/image` text → prompt words and flags; a flag svc does not know is a usage error. */
export function parseImageCommand(text: string): ImageCommandOptions {
  const options: ImageCommandOptions = { words: [] };
  const words = splitWords(text);
  let onlyWords = false;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (onlyWords || !looksLikeOption(word)) {
      if (word === '--' && !onlyWords) onlyWords = true;
      else options.words.push(word);
      continue;
    }
    const equals = word.indexOf('=');
    const name = equals > 0 ? word.slice(0, equals) : word;
    if (!isFlagName(name)) {
      throw new UsageError(`/image does not take ${name}`, { hint: 'it takes --aspect, --format, --seed, -n, --negative and -o; put -- before prompt words that start with -' });
    }
    let value: string | undefined;
    if (equals > 0) value = word.slice(equals + 1);
    else {
      value = words[index + 1];
      index += 1;
    }
    if (value === undefined) throw new UsageError(`/image ${name} needs a value`);
    options[IMAGE_COMMAND_FLAGS[name]] = value;
  }
  return options;
}
