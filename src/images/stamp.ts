/**
 * Putting the provenance record into each image of an answer, before it gets its real name: what
 * was asked (prompt, negative prompt, model, aspect, format), what the service answered (revised
 * prompt, the seed it reports when it reports one), when, and by which svc. A file that has no
 * room for it is kept as it came, with a warning: the image matters more than its label.
 */
import type { ImageGeneration } from '../api/images/generate.js';
import { isObject } from '../core/json.js';
import { version } from '../core/version.js';
import { MetadataNotWritten } from './metadata-writer.js';
import type { Provenance } from './provenance.js';
import { TempImageFile } from './temp-image-file.js';

export type AskedFor = Pick<Provenance, 'prompt' | 'negativePrompt' | 'model' | 'seed' | 'aspectRatio' | 'format'>;

/** The seed the service reports for image `index` (`data[i].seed`), when it does. */
function reportedSeed(answer: Record<string, unknown>, index: number): number | undefined {
  const data = answer.data;
  const entry = Array.isArray(data) ? (data[index] as unknown) : undefined;
  return isObject(entry) && typeof entry.seed === 'number' && Number.isSafeInteger(entry.seed) ? entry.seed : undefined;
}

/** Write the record into every image of `result` whose file svc made with room for it. */
export function stampImages(result: ImageGeneration, asked: AskedFor, warn: (note: string) => void, seeds?: ReadonlyArray<number | undefined>): void {
  const createdAt = new Date().toISOString();
  result.images.forEach((image, index) => {
    if (!(image.file instanceof TempImageFile)) return;
    const record: Provenance = {
      ...asked,
      seed: seeds?.[index] ?? asked.seed ?? reportedSeed(result.answer, index),
      revisedPrompt: image.revisedPrompt,
      createdAt,
      svcVersion: version,
    };
    try {
      image.file.addProvenance(record);
    } catch (error) {
      if (!(error instanceof MetadataNotWritten)) throw error;
      warn(`the prompt and seed were not written into the image: ${error.message}`);
    }
  });
}
