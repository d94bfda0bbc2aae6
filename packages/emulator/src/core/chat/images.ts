/**
 * The images of a chat request, read: each `data:` URL decoded (core/images/decode.ts), each
 * http(s) link left as it is (the emulator works offline and fetches nothing). A file that is
 * not a whole PNG, JPEG, GIF or WebP, or is over 20 MB, is refused as OpenAI refuses it, in its
 * words; a URL that is not a data URL of an image was refused before, naming the part
 * (messages.ts).
 */
import { decodeImage, type ReadImage } from '../images/decode.js';
import { EmulatorError } from '../errors.js';
import { imageTokens } from '../tokenizer.js';
import { imageDataOf, type ChatMessage, type ImageInput } from './messages.js';

/** OpenAI's bound on one image of a message. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** OpenAI's answer to an image it cannot read (its `param` is null: it does not say which). */
export function unsupportedImage(): EmulatorError {
  return new EmulatorError(400, "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].", {
    code: 'invalid_image_format',
  });
}

/** Each image part of `messages` with what it holds: its pixels, or undefined for a link. */
export type ReadImages = ReadonlyMap<ImageInput, ReadImage | undefined>;

/** Reads every image of every message, in order; throws {@link unsupportedImage} at the first that cannot be read. */
export async function readImages(messages: readonly ChatMessage[]): Promise<ReadImages> {
  const read = new Map<ImageInput, ReadImage | undefined>();
  for (const image of messages.flatMap((message) => message.images ?? [])) {
    const bytes = imageDataOf(image);
    if (bytes === undefined) {
      read.set(image, undefined);
      continue;
    }
    if (bytes.length > MAX_IMAGE_BYTES) throw unsupportedImage();
    try {
      read.set(image, await decodeImage(bytes));
    } catch {
      throw unsupportedImage();
    }
  }
  return read;
}

/** The prompt tokens of the images read (core/tokenizer.ts counts them as OpenAI does). */
export function countImageTokens(images: ReadImages): number {
  let total = 0;
  for (const [input, read] of images) total += imageTokens(read, input.detail);
  return total;
}
