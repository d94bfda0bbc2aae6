/**
 * `svc image` flags → what to ask for and where to write, checked before anything is sent.
 * Pure, so a table test covers it.
 */
import { extname } from 'node:path';
import { ASPECT_RATIOS, IMAGE_FORMATS, MAX_SEED, type AspectRatio, type ImageFormat } from '../api/images/formats.js';
import { UsageError } from '../core/errors.js';
import { IMAGE_OWNED, parseParams, type RequestParams } from '../core/request-params.js';
import { parseIntegerInRange } from '../core/parse-values.js';
import { formatOfExtension } from '../images/file-format.js';

/**
 * The prompt words and the flags as typed: by `svc image` (commander), `/image` (image-args.ts)
 * or a batch line's fields (batch/body-checks.ts), so that one parser checks them all.
 */
export interface RawImageOptions {
  words: string[];
  output?: string | undefined;
  aspect?: string | undefined;
  format?: string | undefined;
  seed?: string | undefined;
  count?: string | undefined;
  negative?: string | undefined;
  force?: boolean | undefined;
  json?: boolean | undefined;
  open?: boolean | undefined;
  param?: string[] | undefined;
}

/**
 * `folder`: -o names a folder, so the file is named from the prompt inside it (as `cp` does).
 * `beside`: `svc image again FILE` without -o: named after FILE, in its folder (`out-2.png`).
 */
export type OutputTarget = { kind: 'stdout' } | { kind: 'path'; path: string } | { kind: 'folder'; path: string } | { kind: 'beside'; path: string } | { kind: 'auto' };

export interface ImagePlan {
  /** `--param KEY=VALUE`: fields added to the request body as given. */
  params: RequestParams;
  prompt: string;
  aspect: AspectRatio | undefined;
  format: ImageFormat;
  seed: number | undefined;
  negative: string | undefined;
  output: OutputTarget;
  force: boolean;
  json: boolean;
  open: boolean;
  /** `-n N`: how many variants, one request each (api/images/generate.ts); 1 when not given. */
  count?: number;
  /** Write the provenance into each saved file (images/provenance.ts); --no-metadata and the setting turn it off. */
  metadata?: boolean;
}

/** Variants of one prompt at most (-n): a contact sheet of more is too small to judge them by. */
const MAX_VARIANTS = 8;

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const match = allowed.find((candidate) => candidate === value.trim().toLowerCase());
  if (!match) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}"`);
  return match;
}

/** `photos/`, `.`, `..`: a folder even before it is looked at (and an error if it is missing). */
function namesFolder(path: string): boolean {
  return /[/\\]$/.test(path) || /(^|[/\\])\.\.?$/.test(path);
}

/** `isFolder` tells whether a path names an existing folder (the file system, in real runs). */
export function parseImageOptions(raw: RawImageOptions, isFolder: (path: string) => boolean = () => false): ImagePlan {
  const prompt = raw.words.join(' ').trim();
  if (prompt === '') throw new UsageError('no prompt: describe the image', { hint: 'svc image "a lighthouse at dusk" --aspect 16:9' });
  const aspect = raw.aspect === undefined ? undefined : oneOf(raw.aspect, ASPECT_RATIOS, '--aspect');
  const asked = raw.format === undefined ? undefined : oneOf(raw.format === 'jpg' ? 'jpeg' : raw.format, IMAGE_FORMATS, '--format');
  const seed = raw.seed === undefined ? undefined : parseIntegerInRange(raw.seed, '--seed', 0, MAX_SEED);
  if (raw.negative !== undefined && raw.negative.trim() === '') throw new UsageError('--negative must not be empty');

  const count = raw.count === undefined ? 1 : parseIntegerInRange(raw.count, '-n', 1, MAX_VARIANTS);
  if (count > 1 && raw.output === '-') throw new UsageError('-o - writes one image: -n makes several', { hint: 'use -o name.png: they are saved as name-1.png, name-2.png…' });

  let output: OutputTarget = { kind: 'auto' };
  let format: ImageFormat = asked ?? 'png';
  if (raw.output !== undefined) {
    if (raw.output === '') throw new UsageError('-o must name a file, or - for stdout');
    if (raw.output === '-') {
      if (raw.json) throw new UsageError('-o - and --json both want stdout; pick one');
      if (raw.open) throw new UsageError('--open opens a saved file, and -o - saves none', { hint: 'use -o name.ext --open' });
      output = { kind: 'stdout' };
    } else if (namesFolder(raw.output) || isFolder(raw.output)) {
      output = { kind: 'folder', path: raw.output };
    } else {
      output = { kind: 'path', path: raw.output };
      const ext = extname(raw.output);
      const fromExtension = ext === '' ? undefined : formatOfExtension(ext);
      if (ext !== '' && !fromExtension) {
        throw new UsageError(`-o ${raw.output}: "${ext}" is not an image extension svc writes`, { hint: 'use .png, .jpg, .jpeg or .webp, or give --format' });
      }
      if (fromExtension && asked && fromExtension !== asked) {
        throw new UsageError(`-o ${raw.output} says ${fromExtension} but --format says ${asked}`);
      }
      format = asked ?? fromExtension ?? 'png';
    }
  }
  return {
    prompt,
    aspect,
    format,
    seed,
    negative: raw.negative?.trim(),
    output,
    force: raw.force === true,
    json: raw.json === true,
    open: raw.open === true,
    count,
    params: parseParams(raw.param ?? [], IMAGE_OWNED),
  };
}
