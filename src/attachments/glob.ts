/**
 * A small glob for `-f 'src/*.ts'` and `/file`: `*`, `?`, `[abc]`, `**` (any number of folders)
 * and `{a,b}`. Node's own fs.glob arrives in Node 22 and svc supports 20.19, and the forms above
 * are what people type for "these files"; a library (fast-glob, tinyglobby) would add a
 * dependency tree for a few dozen lines. Shell conventions are kept: `*` and `?` never match a
 * leading "." (hidden files need the dot written) nor a "/", `**` does not enter hidden folders
 * and does not follow links to folders (a link loop cannot hang it). Matches are files only,
 * sorted, each once.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** True when `text` holds a character this glob gives a meaning to. */
export function hasGlobMagic(text: string): boolean {
  return /[*?[{]/.test(text);
}

/** `a{b,c{d,e}}f` → abf, acdf, acef. A brace without a comma is kept as written. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open === -1) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let index = open; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '{') depth++;
    else if (char === '}' && --depth === 0) {
      if (commas.length === 0) {
        // `{x}`: not an alternation; keep it and expand what follows.
        return expandBraces(pattern.slice(index + 1)).map((rest) => pattern.slice(0, index + 1) + rest);
      }
      const head = pattern.slice(0, open);
      const tail = pattern.slice(index + 1);
      const bounds = [open, ...commas, index];
      const options = bounds.slice(1).map((end, i) => pattern.slice(bounds[i]! + 1, end));
      return options.flatMap((option) => expandBraces(head + option + tail));
    } else if (char === ',' && depth === 1) commas.push(index);
  }
  return [pattern]; // unbalanced: taken literally
}

/** One path segment's pattern as a regular expression (`*.ts` → /^(?!\.)[^/]*\.ts$/). */
export function segmentRegExp(segment: string): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const close = segment.indexOf(']', index + 2);
      if (close === -1) source += '\\[';
      else {
        const body = segment.slice(index + 1, close).replace(/\\/g, '\\\\');
        source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        index = close;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  // A leading dot must be written: `*` does not list hidden files, as in a shell.
  const hidden = segment.startsWith('.') ? '' : '(?!\\.)';
  return new RegExp(`^${hidden}${source}$`);
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // not a folder, or not readable: nothing matches there
  }
}

/** Follows a link to see what it points at; a broken link is neither. */
function kindOf(dir: string, entry: Dirent): 'file' | 'folder' | 'other' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    const stat = statSync(join(dir, entry.name));
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * The files under `base` that `pattern` (relative, "/"-separated, or absolute) matches, as paths
 * written the way the pattern was (relative stays relative).
 */
export function globFiles(pattern: string, base: string): string[] {
  const found = new Set<string>();
  for (const expanded of expandBraces(pattern)) {
    const absolute = expanded.startsWith('/');
    const segments = expanded.split('/').filter((segment, index) => segment !== '' || index === 0);
    if (absolute) segments.shift();
    walk(absolute ? '/' : base, absolute ? '/' : '', segments, found);
  }
  return [...found].sort();
}

function walk(dir: string, shown: string, segments: string[], found: Set<string>): void {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  const last = rest.length === 0;
  if (segment === '**') {
    // Zero folders, then one more level for each folder here (not hidden, not a link).
    if (!last) walk(dir, shown, rest, found);
    for (const entry of entries(dir)) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), shown + entry.name + '/', segments, found);
      else if (last && kindOf(dir, entry) === 'file') found.add(shown + entry.name);
    }
    return;
  }
  if (!hasGlobMagic(segment)) {
    // A plain name: looked up, not listed (the folder may not be listable, only searchable).
    const path = join(dir, segment);
    if (last) {
      if (isFile(path)) found.add(shown + segment);
    } else walk(path, `${shown}${segment}/`, rest, found);
    return;
  }
  const matcher = segmentRegExp(segment);
  for (const entry of entries(dir)) {
    if (!matcher.test(entry.name)) continue;
    const kind = kindOf(dir, entry);
    if (last && kind === 'file') found.add(shown + entry.name);
    else if (!last && kind === 'folder') walk(join(dir, entry.name), `${shown}${entry.name}/`, rest, found);
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
