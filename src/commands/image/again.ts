/**
 * `svc image again FILE [--seed N]`: the request that made FILE, read from the provenance in it,
 * sent again: the same prompt, negative prompt, model, aspect ratio and format, with a new seed
 * unless --seed gives one (so the new image can be remade too), saved beside FILE under its name
 * and the next free number (`out.png` → `out-2.png`), never over anything. The flags of
 * `svc image` still apply (-o, -m, --json, --preview).
 */
import { SvcError } from '../../core/errors.js';
import type { ImageFlags } from './flags.js';
import { factsOf, noRecordMessage } from './info.js';
import type { IO } from '../../terminal/io.js';
import { randomSeed } from '../image-variants.js';

/** The words and flags of the `svc image` run that makes FILE again. */
export function againRequest(io: IO, file: string, flags: ImageFlags): { words: string[]; flags: ImageFlags } {
  const facts = factsOf(io.cwd, file);
  const record = facts.record;
  if (!record) throw new SvcError(noRecordMessage(file, facts), { hint: 'svc image again needs a file svc saved with its metadata' });
  const seed = flags.seed ?? String(randomSeed());
  if (flags.seed === undefined) io.note(`again with a new seed, ${seed} (--seed ${record.seed ?? 'N'} asks for the same one)`);
  io.note(`prompt: ${record.prompt}`);
  return {
    words: [record.prompt],
    flags: {
      ...flags,
      seed,
      model: flags.model ?? record.model,
      aspect: flags.aspect ?? record.aspectRatio,
      format: flags.format ?? (record.format || undefined),
      negative: flags.negative ?? record.negativePrompt,
    },
  };
}
