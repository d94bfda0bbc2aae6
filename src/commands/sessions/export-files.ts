/**
 * What `svc sessions export` writes, loaded only when it runs: a conversation as Markdown (its
 * images linked, or copied beside it) or as one HTML page (its images embedded), and the file
 * written whole or not at all (a temporary file in the same folder, then renamed).
 */
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { detectFormat, readDimensions } from '../../images/file-format.js';
import { toMarkdown } from '../../export/markdown.js';
import type { Conversation, ImageNote } from '../../conversations/model.js';
import { SvcError } from '../../core/errors.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { existsBeforeStart, nameTaken, notAFile } from '../../images/file-names.js';
import { commitFile } from '../../images/save.js';
import type { EmbeddedImage } from '../../export/html.js';
import { tempPathIn } from '../../storage/replace-file.js';
import { checkFolder } from '../image-target.js';

/** Markdown; each image linked relative to `base` (where the export is read from), or to its copy. */
export function markdownExport(conversation: Conversation, base: string, copies: ImageCopies | undefined): string {
  return toMarkdown(conversation, (image) => {
    if (!existsSync(image.path)) return undefined;
    return relative(base, copies ? copies.copy(image.path) : image.path);
  });
}

/** One self-contained HTML page (export/html.ts, which loads marked: only for this format). */
export async function htmlExport(conversation: Conversation): Promise<string> {
  const { toHtml } = await import('../../export/html.js');
  return toHtml(conversation, embeddedImage);
}

/** An image file's bytes for the HTML export, or undefined when it is gone or not an image. */
function embeddedImage(image: ImageNote): EmbeddedImage | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(image.path);
  } catch {
    return undefined;
  }
  const format = detectFormat(bytes);
  if (format === undefined) return undefined;
  const size = readDimensions(bytes.subarray(0, 256 * 1024));
  return { mime: `image/${format}`, base64: bytes.toString('base64'), width: size?.width, height: size?.height };
}

/**
 * `--with-images DIR`: each image copied once into DIR (made when missing) under its own name,
 * `-2`, `-3`… when another file has it; an image already in DIR is linked where it is.
 */
export class ImageCopies {
  readonly #dir: string;
  readonly #shownAs: string;
  readonly #done = new Map<string, string>();
  count = 0;

  constructor(dir: string, shownAs: string) {
    this.#dir = dir;
    this.#shownAs = shownAs;
  }

  copy(source: string): string {
    const known = this.#done.get(source);
    if (known) return known;
    if (dirname(source) === this.#dir) return source;
    try {
      mkdirSync(this.#dir, { recursive: true });
      const ext = extname(source);
      const stem = basename(source, ext);
      let target = join(this.#dir, basename(source));
      // nameTaken, not existsSync: a dangling link by that name is taken too (COPYFILE_EXCL would fail on it).
      for (let n = 2; nameTaken(target); n += 1) target = join(this.#dir, `${stem}-${n}${ext}`);
      copyFileSync(source, target, constants.COPYFILE_EXCL);
      this.#done.set(source, target);
      this.count += 1;
      return target;
    } catch (error) {
      throw new SvcError(`cannot copy ${source} into ${this.#shownAs}: ${describeSystemError(error)}`, { hint: 'choose another folder with --with-images', cause: error });
    }
  }
}

/**
 * Write `text` to `path` whole or not at all; an existing file is replaced only with `force`.
 * A missing folder and a taken name are found first, as usage errors (exit 2), as for svc image.
 */
export function writeWhole(path: string, text: string, force: boolean, shownAs: string): void {
  checkFolder(dirname(path), `-o ${shownAs}`);
  if (!force && nameTaken(path)) throw existsBeforeStart(path, 'nothing was written');
  const special = force ? notAFile(path, 'nothing was written') : undefined;
  if (special) throw special;
  const temp = tempPathIn(dirname(path));
  try {
    writeFileSync(temp, text, { flag: 'wx' });
  } catch (error) {
    rmSync(temp, { force: true });
    const missing = errnoCode(error) === 'ENOENT' ? ' (the folder does not exist)' : '';
    throw new SvcError(`cannot write ${path}: ${describeSystemError(error)}${missing}; nothing was written`, { hint: 'choose another file or folder with -o', cause: error });
  }
  try {
    commitFile(temp, path, force);
  } finally {
    rmSync(temp, { force: true });
  }
}
