/**
 * Tab completion in the session, in readline's completer shape: the line up to the cursor →
 * [candidates, the part of the line they replace]. Readline inserts what a single candidate adds
 * to that part (or what all candidates share), so every candidate starts with the part as typed:
 * `~/` and escapes stay as the user wrote them.
 *
 * Slash-command names, /image's options and their values, /file paths (escaped with `\ ` as
 * attach.ts reads them) and its words, /role names. A plain message gets nothing (line-reader.ts
 * then inserts a Tab). Reads the file system, nothing else.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../../api/images/formats.js';
import { listRoles } from '../../../roles/store.js';
import { savePath } from './save-messages.js';
import { SLASH_COMMANDS } from './slash-commands.js';

export interface CompletionContext {
  /** The session's folder: relative paths are listed from here. */
  cwd: string;
  /** HOME for `~/`, and where user roles are. */
  env: Record<string, string | undefined>;
}

export type Completion = [candidates: string[], replaced: string];

/** The options /image offers (image-args.ts also reads --output, the long -o). */
const IMAGE_OPTIONS = ['--aspect', '--format', '--seed', '--negative', '-o'];
const IMAGE_VALUES: Record<string, readonly string[]> = { '--aspect': ASPECT_RATIOS, '--format': IMAGE_FORMATS };
const IMAGE_PATH_OPTIONS = new Set(['-o', '--output']);

function startingWith(word: string, names: readonly string[], after = ' '): string[] {
  return names.filter((name) => name.startsWith(word)).map((name) => `${name}${after}`);
}

/** A line that completes as a slash command; any other is a message, where Tab is text. */
export function isCommandLine(line: string): boolean {
  return line.startsWith('/') && !line.startsWith('//');
}

export function completeSessionLine(line: string, context: CompletionContext): Completion {
  if (!isCommandLine(line)) return [[], line];
  const space = line.search(/\s/);
  if (space === -1) return [startingWith(line, Object.keys(SLASH_COMMANDS).map((name) => `/${name}`)), line];
  const command = line.slice(1, space).toLowerCase();
  const arg = line.slice(space + 1);
  switch (command) {
    case 'image':
      return completeImage(arg, context);
    case 'file':
      return completeFile(arg, context);
    case 'role': {
      const word = arg.trimStart();
      if (/\s/.test(word)) return [[], word];
      return [startingWith(word, listRoles(context.env).map((entry) => entry.name)), word];
    }
    case 'copy': {
      const word = arg.trimStart();
      return [/\s/.test(word) ? [] : startingWith(word, ['code']), word];
    }
    default:
      return [[], arg];
  }
}

/**
 * /file: paths, and its words `last` (any word) and `clear` (alone) once a letter of them is
 * typed: an empty word lists the folder only.
 */
function completeFile(arg: string, context: CompletionContext): Completion {
  const word = currentPathWord(arg);
  const [paths, replaced] = completePath(word, context, 'backslash');
  if (word.value === '' || word.typed !== word.value) return [paths, replaced];
  const first = word.typed.length === arg.trimStart().length;
  const words = startingWith(word.value, first ? ['clear', 'last'] : ['last']);
  return [[...words, ...paths.filter((path) => !words.includes(path))], replaced];
}

/** /image: options for a word starting with "-", values after --aspect / --format, paths after -o. */
function completeImage(arg: string, context: CompletionContext): Completion {
  const words = arg.split(/\s+/);
  const word = words.at(-1) ?? '';
  const previous = words.at(-2) ?? '';
  if (previous in IMAGE_VALUES) return [startingWith(word, IMAGE_VALUES[previous]!), word];
  if (IMAGE_PATH_OPTIONS.has(previous)) {
    // A quote at the start of a word groups (image-args.ts); there are no `\` escapes.
    const quote = /^["']/.test(word) ? word[0] : undefined;
    return completePath({ typed: word, value: quote ? word.slice(1) : word, quote }, context, 'plain');
  }
  const equals = /^(--aspect|--format)=(.*)$/.exec(word);
  if (equals) return [startingWith(word, IMAGE_VALUES[equals[1]!]!.map((value) => `${equals[1]}=${value}`)), word];
  if (word.startsWith('-')) return [startingWith(word, IMAGE_OPTIONS), word];
  return [[], word];
}

/** The word being typed, as typed (`typed`) and as attach.ts's splitPaths will read it (`value`). */
interface PathWord {
  typed: string;
  value: string;
  /** The quote the word opened and has not closed yet. */
  quote: string | undefined;
}

/** The last word of a /file line, read with splitPaths' rules (quotes, `\` escapes). */
export function currentPathWord(arg: string): PathWord {
  let start = 0;
  let value = '';
  let quote: string | undefined;
  for (let index = 0; index < arg.length; index++) {
    const char = arg[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else value += char;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '\\' && index + 1 < arg.length) value += arg[++index];
    else if (/\s/.test(char)) {
      start = index + 1;
      value = '';
    } else value += char;
  }
  return { typed: arg.slice(start), value, quote };
}

/**
 * How a name is written back: `backslash` escapes what splitPaths would split at (a /file word);
 * inside an open quote nothing needs escaping; `plain` (/image -o, which has no escapes) offers
 * only names a bare word can hold.
 */
type Style = 'backslash' | 'plain';

function writeName(name: string, word: PathWord, style: Style): string | undefined {
  if (word.quote !== undefined) return name.includes(word.quote) ? undefined : name;
  if (style === 'plain') return /[\s"']/.test(name) ? undefined : name;
  return name.replace(/[\s\\"']/g, (char) => `\\${char}`);
}

function isFolder(dir: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, entry.name)).isDirectory();
  } catch {
    return false; // a link to nothing completes as a file
  }
}

function completePath(word: PathWord, context: CompletionContext, style: Style): Completion {
  if (word.value === '~') return [[`${word.typed}/`], word.typed];
  const slash = word.value.lastIndexOf('/');
  const folder = word.value.slice(0, slash + 1);
  const prefix = word.value.slice(slash + 1);
  // The typed text up to its last "/" is kept as it is (a "/" is never escaped or quoted away).
  const typedFolder = word.typed.slice(0, word.typed.lastIndexOf('/') + 1);
  // A quote opened right before the name ("my fi, docs/'my fi) stays in front of it.
  const typedRest = word.typed.slice(typedFolder.length);
  const opening = word.quote !== undefined && typedRest.startsWith(word.quote) ? word.quote : '';
  const dir = savePath(folder === '' ? '.' : folder, context.cwd, context.env);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [[], word.typed]; // no such folder, or not readable: nothing to offer
  }
  const candidates: string[] = [];
  for (const entry of entries) {
    if (!entry.name.startsWith(prefix)) continue;
    if (entry.name.startsWith('.') && !prefix.startsWith('.')) continue;
    const written = writeName(entry.name, word, style);
    if (written === undefined) continue;
    const folderEntry = isFolder(dir, entry);
    // A file ends the word (closing its quote); a folder goes on with "/".
    const end = folderEntry ? '/' : `${word.quote ?? ''} `;
    candidates.push(`${typedFolder}${opening}${written}${end}`);
  }
  return [candidates.sort(), word.typed];
}
