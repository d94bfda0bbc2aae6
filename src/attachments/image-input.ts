/**
 * An image attached to a message (`-f photo.jpg`, `/file`): what its bytes say it is (PNG, JPEG,
 * WebP or GIF, never its name), its pixel size, and the bytes that go to the service as an
 * `image_url` part. A picture within `max` pixels on its long side goes byte for byte; a larger
 * one is scaled down, keeping its aspect, and encoded again in its own format
 * (images/shrink.ts), since services scale a large picture down themselves anyway (OpenAI's to
 * 2,048 pixels) and the bytes over that are only upload time and tokens. An http(s) address is
 * sent as it is, for the service to fetch: nothing is downloaded here.
 *
 * Every refusal is a UsageError naming the file (exit 2, nothing sent), as for a text file
 * (read.ts).
 */
import { createHash } from 'node:crypto';
import { imagePart, type ImageDetail, type ImagePart } from '../api/content-parts.js';
import { readDimensions } from '../images/file-format.js';
import { formatBytes } from '../core/byte-size.js';
import { gifFrames, gifSize, jpegOrientation, orientedSize, shrinkImage, UnreadableImageError, type InputFormat, type Size } from '../images/shrink.js';
import { imageFormatOf, imageTooLarge, MAX_IMAGE_BYTES, refused, type AttachedFile, type FileOption, type ImageInput } from './read.js';

/** Pixels on the long side an image is scaled down to (the `imageInputMax` setting's default). */
export const DEFAULT_IMAGE_INPUT_MAX = 2048;

/**
 * The largest picture svc decodes to scale it: 64 megapixels (8,000 × 8,000) takes 256 MiB
 * decoded, and covers the 48 and 50-megapixel photos of today's phones. A larger one is refused
 * with a word on how to make it smaller, rather than risking the memory of a small machine.
 */
export const MAX_INPUT_PIXELS = 64_000_000;

export const MIME_TYPE: Readonly<Record<InputFormat, string>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

export interface ImageInputOptions {
  /** The file as the user named it, for messages. */
  name: string;
  /** Pixels on the long side (`imageInputMax`); 2,048 when not given. */
  max?: number | undefined;
  /** How the refusals name the option: "-f" on the command line, "/file" in the session. */
  option?: FileOption | undefined;
}

/** `size` scaled down, keeping its aspect, until its long side is at most `max`; itself when it already is. */
export function fitWithin(size: Size, max: number): Size {
  const long = Math.max(size.width, size.height);
  if (long <= max) return size;
  const ratio = max / long;
  return { width: Math.max(1, Math.round(size.width * ratio)), height: Math.max(1, Math.round(size.height * ratio)) };
}

/**
 * `bytes`, a file named `options.name`, as an image to send: as it is when it fits within `max`
 * pixels and needs no change, else scaled down and encoded again. A GIF that moves is sent as a
 * PNG of its first frame (images/shrink.ts says why), whatever its size.
 */
export async function prepareImage(bytes: Uint8Array, options: ImageInputOptions): Promise<ImageInput> {
  const { name, max = DEFAULT_IMAGE_INPUT_MAX, option = '-f' } = options;
  const label = `${option} ${name}`;
  if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge(option, name);
  const format = imageFormatOf(bytes.subarray(0, 64));
  if (format === undefined) throw refused(option, `${label} is not an image svc can send: PNG, JPEG, WebP or GIF`);
  // The codecs' own words can quote the file ("unknown marker 0x…"): only the format is named.
  const damaged = (): Error => refused(option, `${label} could not be read as a ${format === 'jpeg' ? 'JPEG' : format.toUpperCase()} image: damaged, or cut short`);
  const stored = format === 'gif' ? gifSize(bytes) : readDimensions(bytes);
  if (stored === undefined || stored.width === 0 || stored.height === 0) throw damaged();
  const orientation = format === 'jpeg' ? jpegOrientation(bytes) : 1;
  const upright = orientedSize(stored, orientation);
  let moving = false;
  if (format === 'gif') {
    try {
      moving = (await gifFrames(bytes)) > 1;
    } catch {
      throw damaged();
    }
  }
  const target = fitWithin(upright, max);
  if (target === upright && !moving) return finish(format, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), upright, undefined);

  if (stored.width * stored.height > MAX_INPUT_PIXELS) {
    throw refused(option, `${label} is ${stored.width}×${stored.height} pixels, more than svc scales down (${MAX_INPUT_PIXELS / 1_000_000} megapixels)`, 'make it smaller first (e.g. a JPEG of 2048 pixels on its long side)');
  }
  let scaled: Buffer;
  try {
    scaled = await shrinkImage(bytes, format, target, orientation, MAX_INPUT_PIXELS);
  } catch (error) {
    throw error instanceof UnreadableImageError ? damaged() : error;
  }
  return finish(format === 'gif' ? 'png' : format, scaled, target, target === upright ? undefined : upright);
}

function finish(format: InputFormat, bytes: Buffer, size: Size, scaledFrom: Size | undefined): ImageInput {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { format, mime: MIME_TYPE[format], bytes, width: size.width, height: size.height, ...(scaledFrom ? { scaledFrom: { width: scaledFrom.width, height: scaledFrom.height } } : {}), sha256 };
}

/** The image as a `data:` URL (RFC 2397): its type, then its bytes in base64. */
export function imageDataUrl(image: Pick<ImageInput, 'mime' | 'bytes'>): string {
  return `data:${image.mime};base64,${image.bytes.toString('base64')}`;
}

/** The `image_url` part that sends the image, with `detail` when one was chosen (`--image-detail`). */
export function imageInputPart(image: Pick<ImageInput, 'mime' | 'bytes'>, detail?: ImageDetail): ImagePart {
  return imagePart(imageDataUrl(image), detail);
}

/** "[image photo.jpg, 412.3 KiB, 2048×1536, scaled from 4032×3024]": how a list or /history names an attached image. */
export function describeImage(name: string, image: Pick<ImageInput, 'bytes' | 'width' | 'height' | 'scaledFrom'>): string {
  const from = image.scaledFrom ? `, scaled from ${image.scaledFrom.width}×${image.scaledFrom.height}` : '';
  return `[image ${name}, ${formatBytes(image.bytes.length)}, ${image.width}×${image.height}${from}]`;
}

/**
 * The files of `-f` or `/file` with each image read from the disk prepared to go (scaled down
 * when over `max`), in order: the first refusal stops them all (exit 2, nothing sent).
 */
export async function prepareImages(files: readonly AttachedFile[], options: Omit<ImageInputOptions, 'name'>): Promise<AttachedFile[]> {
  const prepared: AttachedFile[] = [];
  for (const file of files) {
    const image = file.image;
    if (image === undefined || !('data' in image)) prepared.push(file);
    else prepared.push({ ...file, image: { input: await prepareImage(image.data, { ...options, name: file.name }) } });
  }
  return prepared;
}
