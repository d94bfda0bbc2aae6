/**
 * `svc sessions export <name>`: a conversation as Markdown or as the messages array, on stdout or
 * in a file. A file is written whole or not at all (a temporary file in the same folder, then
 * renamed), and an existing one is kept unless --force, as `svc image` does.
 */
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { detectFormat, readDimensions } from '../../api/images/formats.js';
import type { ImageNote } from '../../conversations/model.js';
import type { EmbeddedImage } from '../../export/html.js';
import { toMarkdown } from '../../export/markdown.js';
import { toMessages } from '../../conversations/model.js';
import { conversationStoreFor } from '../../conversations/store.js';
import { SvcError, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { forOutput } from '../../core/terminal-text.js';
import { nameTaken } from '../../images/file-names.js';
import { commitFile, existsBeforeStart, notAFile } from '../../images/save.js';
import { tempPathIn } from '../../storage/temp-name.js';
import { checkFolder } from '../image-target.js';

export type ExportFormat = 'md' | 'html' | 'json';

export interface ExportOptions {
  format?: string;
  output?: string;
  force?: boolean;
  /** Markdown: copy the images into this folder and link them there. */
  withImages?: string;
}

/** --format, else the extension of -o (.json is JSON, .html/.htm HTML), else Markdown. */
function formatOf(options: ExportOptions): ExportFormat {
  // commander has checked --format against EXPORT_FORMATS.
  if (options.format !== undefined) return options.format as ExportFormat;
  const ext = options.output === undefined ? '' : extname(options.output).toLowerCase();
  return ext === '.json' ? 'json' : ext === '.html' || ext === '.htm' ? 'html' : 'md';
}

const FORMAT_NAMES: Record<ExportFormat, string> = { md: 'Markdown', html: 'HTML', json: 'JSON' };

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Write `text` to `path` whole or not at all; an existing file is replaced only with `force`.
 * A missing folder and a taken name are found first, as usage errors (exit 2), as for svc image.
 */
function writeWhole(path: string, text: string, force: boolean, shownAs: string): void {
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

/** `svc sessions export NAME`: NAME may be a beginning of the name that no other shares (store.ts resolve). */
export async function runExport(factory: Factory, given: string, options: ExportOptions): Promise<void> {
  const { io } = factory;
  const format = formatOf(options);
  if (options.withImages !== undefined && format !== 'md') {
    throw new UsageError(`--with-images is for Markdown exports${format === 'html' ? ': an HTML export embeds its images' : ''}`, { hint: `svc sessions export ${given} -o ${given}.md --with-images images` });
  }
  const store = conversationStoreFor(io);
  const name = store.resolve(given);
  const conversation = store.read(name);
  const toStdout = options.output === undefined || options.output === '-';
  let path = toStdout ? undefined : resolve(io.cwd, options.output!);
  // `-o notes/` puts <name>.md in that folder, as cp and svc image do; with its slash it names a
  // folder even where none exists (then refused below, naming it), never a file to create.
  if (path !== undefined && (isFolder(path) || /[\\/]$/.test(options.output!))) path = join(path, `${name}.${format}`);
  // Image links are relative to where the export is read from: its folder, or here for stdout.
  const base = path === undefined ? io.cwd : dirname(path);
  let text: string;
  if (format === 'json') text = `${JSON.stringify(toMessages(conversation), null, 2)}\n`;
  else if (format === 'html') {
    const { toHtml } = await import('../../export/html.js');
    text = toHtml(conversation, embeddedImage);
  } else {
    const copies = options.withImages === undefined ? undefined : new ImageCopies(resolve(io.cwd, options.withImages), options.withImages);
    text = toMarkdown(conversation, (image) => {
      if (!existsSync(image.path)) return undefined;
      return relative(base, copies ? copies.copy(image.path) : image.path);
    });
    if (copies && copies.count > 0) io.note(`copied ${copies.count} ${copies.count === 1 ? 'image' : 'images'} to ${options.withImages!}`);
  }
  if (path === undefined) {
    // Model text on a terminal is neutralised; a pipe or a file gets it exactly.
    io.stdout.write(forOutput(text, io.stdoutIsTTY));
    return;
  }
  writeWhole(path, text, options.force === true, options.output!);
  io.note(`exported "${name}" (${conversation.turns.length} ${conversation.turns.length === 1 ? 'turn' : 'turns'}, ${FORMAT_NAMES[format]}) to ${path}`);
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
class ImageCopies {
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
