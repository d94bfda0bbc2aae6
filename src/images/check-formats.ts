/**
 * Every image must be the format asked for, or nothing is written at all: the first bytes of each
 * decoded file are checked before any of them gets its name (svc image and svc batch).
 */
import type { GeneratedImage } from '../api/images/generate.js';
import { MalformedResponseError } from '../core/errors.js';
import { detectFormat, type ImageFormat } from '../api/images/formats.js';

export function checkImageFormats(images: readonly GeneratedImage[], format: ImageFormat): void {
  images.forEach((image, index) => {
    const found = detectFormat(image.file.head);
    if (found !== format) {
      const which = images.length > 1 ? `image ${index + 1}` : 'the image';
      throw new MalformedResponseError(`${which} the service sent is ${found ?? 'not a known image format'}, not the ${format} asked for; nothing was written`);
    }
  });
}
