/**
 * A user message with files: the words, then each file as a fenced block labelled with its
 * path, then piped stdin, separated by blank lines. Where each block sits is kept with the turn
 * (AttachmentRef), so /history can show a file as its name and size. Images go after the text,
 * each as an `image_url` part (conversations/model.ts userContent).
 */
import type { ImageDetail } from '../api/content-parts.js';
import { formatBytes } from '../core/byte-size.js';
import type { AttachmentRef, ImageRef } from '../conversations/model.js';
import { IMAGE_EXTENSION, type AttachedFile, type ImageInput } from './read.js';

/** An image of a message: what the turn keeps of it, and its bytes when they came from the disk. */
export interface PromptImage {
  ref: ImageRef;
  input?: ImageInput;
}

/** A message as it is sent, and where its files are in it. */
export interface Prompt {
  text: string;
  files: AttachmentRef[];
  /** The images sent after the text, when there are any. */
  images?: PromptImage[];
}

/** What a turn keeps of an image file or address (never its bytes). */
export function imageOfFile(file: AttachedFile, detail: ImageDetail | undefined): PromptImage | undefined {
  const image = file.image;
  if (image === undefined) return undefined;
  const chosen = detail === undefined ? {} : { detail };
  if ('url' in image) return { ref: { name: file.name, url: image.url, ...chosen } };
  if (!('input' in image)) throw new Error(`the image ${file.name} was not prepared`);
  const { input } = image;
  return { ref: { name: file.name, sha256: input.sha256, ext: IMAGE_EXTENSION[input.format], bytes: input.bytes.length, width: input.width, height: input.height, ...chosen }, input };
}

/**
 * A fence longer than any run of backticks in the text (at least three), so nothing inside, a
 * Markdown file's own fences included, can close the block early (CommonMark: a closing fence is
 * at least as long as the opening one).
 */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The label after the opening fence: the path on one line. A backtick cannot be in a backtick
 * fence's info string, and a control character (a newline in a file name) could end the line
 * early: both are shown as "?", the name being only a label.
 */
function labelOf(name: string): string {
  return name.replace(/[`\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
}

/** One file as a fenced block: ```path, the text, ```. */
export function fencedFile(file: Pick<AttachedFile, 'name' | 'text'>): string {
  const fence = fenceFor(file.text);
  const body = file.text === '' || file.text.endsWith('\n') ? file.text : `${file.text}\n`;
  return `${fence}${labelOf(file.name)}\n${body}${fence}`;
}

/**
 * The message: the typed part, the files in order, then the piped part, each after a blank
 * line; parts that are empty are left out. '' when there is nothing at all.
 */
export function composeMessage(typed: string, attached: readonly AttachedFile[], piped: string, detail?: ImageDetail): Prompt {
  const files = attached.filter((file) => file.image === undefined);
  const images = attached.flatMap((file) => imageOfFile(file, detail) ?? []);
  let text = '';
  const refs: AttachmentRef[] = [];
  const add = (part: string): number => {
    if (text !== '') text += '\n\n';
    const start = text.length;
    text += part;
    return start;
  };
  if (typed !== '') add(typed);
  for (const file of files) {
    const start = add(fencedFile(file));
    refs.push({ name: file.name, bytes: file.bytes, start, end: text.length });
  }
  if (piped !== '') add(piped);
  return { text, files: refs, ...(images.length > 0 ? { images } : {}) };
}

/** "[file src/a.ts, 1.2 KiB]": how a list or /history names an attached file. */
export function describeFile(file: Pick<AttachmentRef, 'name' | 'bytes'> & { image?: unknown }): string {
  return `[${file.image === undefined ? 'file' : 'image'} ${file.name}, ${formatBytes(file.bytes)}]`;
}

/** The message with each attached file replaced by its name and size (for /history). */
export function summariseMessage(text: string, files: readonly AttachmentRef[] | undefined): string {
  if (!files || files.length === 0) return text;
  let shown = '';
  let from = 0;
  for (const file of files) {
    shown += text.slice(from, file.start) + describeFile(file);
    from = file.end;
  }
  return shown + text.slice(from);
}

/** "[image photo.jpg, 412.3 KiB, 2048×1536]", or "[image https://…]": how a transcript names an image sent. */
export function describeImageRef(image: ImageRef): string {
  if (image.url !== undefined) return `[image ${image.url}]`;
  const size = image.bytes === undefined ? '' : `, ${formatBytes(image.bytes)}`;
  const pixels = image.width === undefined || image.height === undefined ? '' : `, ${image.width}×${image.height}`;
  return `[image ${image.name}${size}${pixels}]`;
}

/**
 * A user message with its images named after its text, one `[image …]` each (describeImageRef):
 * how /history, /rewind (`separator` ' ') and `svc sessions show` ('\n') list a turn's message.
 */
export function withImagesNamed(text: string, images: readonly ImageRef[] | undefined, separator: string): string {
  return [text, ...(images ?? []).map(describeImageRef)].filter((part) => part !== '').join(separator);
}

/** "3 files, 14.2 KiB": the total, as said on a terminal before sending. */
export function describeTotal(files: readonly Pick<AttachedFile, 'bytes' | 'image'>[]): string {
  const bytes = files.reduce((sum, file) => sum + (file.image && 'input' in file.image ? file.image.input.bytes.length : file.bytes), 0);
  return `${files.length} file${files.length === 1 ? '' : 's'}, ${formatBytes(bytes)}`;
}
