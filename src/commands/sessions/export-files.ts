/**
 * What `svc sessions export` writes, loaded only when it runs: a conversation as Markdown (its
 * images, made with /image or sent with a message, linked, or copied beside it) or as one HTML
 * page (its images embedded), and the file
 * written whole or not at all (a temporary file in the same folder, then renamed).
 */
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { detectFormat, readDimensions } from '../../images/file-format.js';
import { toMarkdown } from '../../export/markdown.js';
import type { Conversation, ImageNote, ImageRef } from '../../conversations/model.js';
import { SvcError } from '../../core/errors.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { existsBeforeStart, nameTaken, notAFile } from '../../images/file-names.js';
import { commitFile } from '../../images/save.js';
import type { EmbeddedImage } from '../../export/html.js';
import { tempPathIn } from '../../storage/replace-file.js';
import { ImageStoreError, keptImagePath, KEPT_MIME, readKeptImage } from '../../storage/image-store.js';
import { checkFolder } from '../image-target.js';

/** Where the image of a message is kept, when its file is there (a name a hand edit spoiled is not). */
function keptFileOf(dataDir: string, image: ImageRef): string | undefined {
  if (image.sha256 === undefined || image.ext === undefined) return undefined;
  try {
    const path = keptImagePath(dataDir, image.sha256, image.ext);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The name a message's image is copied under (--with-images): the name it was attached by, with
 * the extension of what was kept (a moving GIF went as a PNG); its hash when that name is no name.
 */
function copyNameOf(image: ImageRef, kept: string): string {
  const named = basename(image.name.split('\\').join('/'));
  const stem = basename(named, extname(named)).replace(/[\u0000-\u001f\u007f]/g, '');
  return stem === '' || stem === '.' || stem === '..' ? basename(kept) : `${stem}${extname(kept)}`;
}

/**
 * Markdown; each image made with /image linked relative to `base` (where the export is read
 * from), each image of a message by the absolute path it is kept under in svc's data folder
 * (`dataDir`); with `copies`, both linked to their copies.
 */
export function markdownExport(conversation: Conversation, base: string, copies: ImageCopies | undefined, dataDir: string): string {
  return toMarkdown(conversation, {
    made: (image) => {
      if (!existsSync(image.path)) return undefined;
      return relative(base, copies ? copies.copy(image.path) : image.path);
    },
    sent: (image) => {
      const kept = keptFileOf(dataDir, image);
      if (kept === undefined) return undefined;
      return copies ? relative(base, copies.copy(kept, copyNameOf(image, kept))) : kept;
    },
  });
}

/** One self-contained HTML page (export/html.ts, which loads marked: only for this format). */
export async function htmlExport(conversation: Conversation, dataDir: string): Promise<string> {
  const { toHtml } = await import('../../export/html.js');
  return toHtml(conversation, { made: embeddedImage, sent: (image) => keptImageEmbedded(dataDir, image) });
}

/** The kept bytes of a message's image for the HTML export (checked against its hash), or undefined when they are gone or damaged. */
function keptImageEmbedded(dataDir: string, image: ImageRef): EmbeddedImage | undefined {
  if (image.sha256 === undefined || image.ext === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = readKeptImage(dataDir, image.sha256, image.ext);
  } catch (error) {
    if (error instanceof ImageStoreError) return undefined;
    throw error;
  }
  return { mime: KEPT_MIME[image.ext], base64: bytes.toString('base64'), width: image.width, height: image.height };
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

  /** Copy `source` as `name` (its own by default), or the next free variant of it; where it went. */
  copy(source: string, name = basename(source)): string {
    const known = this.#done.get(source);
    if (known) return known;
    if (dirname(source) === this.#dir) return source;
    try {
      mkdirSync(this.#dir, { recursive: true });
      const ext = extname(name);
      const stem = basename(name, ext);
      let target = join(this.#dir, name);
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
