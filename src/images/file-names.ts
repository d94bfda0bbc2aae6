/**
 * Where images go: a name made from the prompt that stays inside the folder and never collides,
 * or the user's -o path (numbered when the service sends several images); and whether a name
 * can be written at all, looked at before anything is sent (save.ts looks again as it writes).
 */
import { lstatSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ImageFormat } from '../api/images/formats.js';
import { EXTENSION } from './file-format.js';

const MAX_SLUG = 48;
/** Names Windows reserves for devices, whatever the extension. */
export const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** A short, safe file name from the prompt: ASCII letters, digits and dashes, or "image". */
export function slugFromPrompt(prompt: string): string {
  const words = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off their letters
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  if (slug === '') slug = (words[0] ?? '').slice(0, MAX_SLUG);
  if (slug === '') return 'image';
  return RESERVED.test(slug) ? `${slug}-image` : slug;
}

/**
 * True when something has this name: a file, a folder, or a symbolic link even if it points
 * nowhere (existsSync follows links and would call a dangling one free, and link() then fails).
 */
export function nameTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `name.ext` → `name-1.ext`, `name-2.ext`… for several images; the name itself for one. */
export function numbered(path: string, count: number): string[] {
  if (count === 1) return [path];
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  return Array.from({ length: count }, (_, index) => `${stem}-${index + 1}${ext}`);
}

/**
 * Paths for `count` images named from the prompt in `dir`, none of which exists yet:
 * `slug.png`, else `slug-2.png`, `slug-3.png`… (with several: `slug-1.png`, `slug-2.png`…, else
 * `slug-2-1.png`…). The final link() still refuses to overwrite if another process wins the race.
 */
export function freshPaths(dir: string, prompt: string, format: ImageFormat, count: number): string[] {
  const slug = slugFromPrompt(prompt);
  const ext = EXTENSION[format];
  for (let attempt = 1; attempt < 10_000; attempt++) {
    const stem = attempt === 1 ? slug : `${slug}-${attempt}`;
    const paths = numbered(join(dir, `${stem}${ext}`), count);
    if (!paths.some(nameTaken)) return paths;
  }
  throw new Error(`no free file name for ${slug} in ${dir}`);
}

/** The extensions svc saves images under, each a name of the same image to a person. */
const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp'];

/**
 * Paths for `count` images made again from `file` (`svc image again`), beside it and never over
 * anything: `out.png` gives `out-2.png`, else `out-3.png`… (several: `out-2-1.png`…), in the format
 * asked for; a number is taken while any image of that name is there (`out-2.png` keeps
 * `out-2.webp` from being made). A file that is one of such a series already (`out-2.png`, with
 * `out.png` beside it) goes on with the series (`out-3.png`), not `out-2-2.png`.
 */
export function pathsBeside(file: string, format: ImageFormat, count: number): string[] {
  const dir = dirname(file);
  const own = extname(file);
  let stem = basename(file, own);
  const series = /^(.+)-\d+$/.exec(stem);
  if (series && nameTaken(join(dir, `${series[1]}${own}`))) stem = series[1]!;
  const numberTaken = (name: string): boolean => IMAGE_EXTENSIONS.some((ext) => nameTaken(join(dir, `${name}${ext}`)));
  for (let number = 2; number < 10_000; number++) {
    if (numberTaken(`${stem}-${number}`)) continue;
    const paths = numbered(join(dir, `${stem}-${number}${EXTENSION[format]}`), count);
    if (!paths.some(nameTaken)) return paths;
  }
  throw new Error(`no free file name for ${stem} in ${dir}`);
}

/** The folder an -o path writes into, and the path made absolute. */
export function outputLocation(cwd: string, path: string): { dir: string; path: string; name: string } {
  const absolute = resolve(cwd, path);
  return { dir: dirname(absolute), path: absolute, name: basename(absolute) };
}

/** What to do about a taken name (`/image`, which has no --force, says it its own way). */
export const EXISTS_HINT = 'choose another name with -o, or pass --force to replace it';

/**
 * The output file is there already and --force was not given, found before anything was sent or
 * written: a usage error (exit 2), like every other check of the command line's targets.
 */
export function existsBeforeStart(path: string, nothingDone = 'nothing was sent'): UsageError {
  return new UsageError(`${path} already exists; it was kept, and ${nothingDone}`, { hint: EXISTS_HINT });
}

/**
 * A device, pipe or socket by that name (`-o /dev/full --force`): --force replaces files, and a
 * rename over one of these would replace the device itself with a file, as root a system one.
 * Undefined when the name is free or a file, a folder or a link.
 */
export function notAFile(path: string, nothingDone = 'nothing was sent'): UsageError | undefined {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (stats.isFile() || stats.isDirectory() || stats.isSymbolicLink()) return undefined;
  return new UsageError(`${path} is not a file (a device, a pipe or a socket); --force replaces only files, and ${nothingDone}`, { hint: 'choose a file name with -o' });
}
