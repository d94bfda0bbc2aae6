/**
 * `svc batch` flags → what to run, checked before anything is read or sent (exit 2). The chat
 * and image flags are checked by the same parsers as on `svc chat` and `svc image`; they become
 * the defaults of every request that does not set the field itself.
 */
import { CHAT_OWNED, IMAGE_OWNED, parseParams, type RequestParams } from '../../core/request-params.js';
import type { AspectRatio, ImageFormat } from '../../api/images/formats.js';
import { UsageError } from '../../core/errors.js';
import { parseRoleName } from '../../core/names.js';
import { parseVars } from '../../roles/template.js';
import type { SettingFlags } from '../../factory.js';
import { parseIntegerInRange } from '../../core/parse-values.js';
import { parseRequestFields, rawFieldsOfFlags, type RequestFields } from '../../chat/request-fields.js';
import { parseImageOptions } from '../image-options.js';
import { settingFlagsFrom } from '../setting-flags.js';
import type { BatchFlags } from './flags.js';
import type { InputFormat } from './input.js';

export interface BatchPlan {
  input: { name: string; format: InputFormat };
  /** The output file, or undefined for stdout. */
  output: string | undefined;
  concurrency: number;
  imagesDir: string | undefined;
  retryFailed: boolean;
  chatFields: RequestFields;
  /** -m (the chat model), --base-url, --timeout, --max-retries. */
  settings: SettingFlags;
  system: string | undefined;
  image: { aspect: AspectRatio | undefined; format: ImageFormat | undefined; seed: number | undefined; negative: string | undefined };
  /** `--dry-run`: print each request as a curl command; send and write nothing. */
  dryRun?: boolean;
  /** `--extract` / `--extract-last`: the code of each chat answer in its record's `extract` field. */
  extract?: 'all' | 'last' | undefined;
  /** `--param KEY=VALUE`: fields added to every request body that does not set them. */
  params?: RequestParams;
  /** false with --no-metadata: images saved as the service sent them. */
  metadata?: boolean;
  /** `--json`: the summary as JSON on stdout (needs -o: without it stdout holds the results). */
  json?: boolean;
  /** `--role NAME`: a saved role for the chat requests. */
  role?: string | undefined;
  /** `--var NAME=VALUE`: the role's blanks. */
  vars?: Record<string, string>;
}

export const DEFAULT_CONCURRENCY = 4;
/**
 * More in flight than this rarely helps (a service's rate limit comes first) and opens as many
 * connections; the bound keeps a typo (--concurrency 4000) from becoming a flood.
 */
export const MAX_CONCURRENCY = 64;

export function parseBatchFlags(input: string | undefined, flags: BatchFlags): BatchPlan {
  if (input !== undefined && flags.prompts !== undefined) throw new UsageError('give a requests file or --prompts, not both');
  const name = input ?? flags.prompts;
  if (name === undefined || name === '') {
    throw new UsageError('no input: name a JSONL file of requests, or --prompts with a file of prompts (- for stdin)', { hint: 'svc batch requests.jsonl -o results.jsonl' });
  }
  const format: InputFormat = flags.prompts !== undefined ? 'prompts' : 'requests';
  const imageFlag = (['aspect', 'format', 'seed', 'negative'] as const).find((flag) => flags[flag] !== undefined);
  if (format === 'prompts' && imageFlag !== undefined) throw new UsageError(`--${imageFlag} is for image requests, and --prompts makes chat requests`);
  if (flags.output === '') throw new UsageError('-o must name a file, or - for stdout');
  if (flags.json === true && (flags.output === undefined || flags.output === '-')) {
    throw new UsageError('--json prints the summary on stdout, where the results go without -o: give -o FILE', { hint: 'svc batch in.jsonl -o results.jsonl --json' });
  }
  if (flags.imagesDir === '') throw new UsageError('--images-dir must name a folder');
  const concurrency = flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseIntegerInRange(flags.concurrency, '--concurrency', 1, MAX_CONCURRENCY);
  const chatFields = parseRequestFields(rawFieldsOfFlags(flags));
  const image = parseImageOptions({ words: ['batch'], aspect: flags.aspect, format: flags.format, seed: flags.seed, negative: flags.negative });
  return {
    input: { name, format },
    output: flags.output === '-' ? undefined : flags.output,
    concurrency,
    imagesDir: flags.imagesDir,
    retryFailed: flags.retryFailed === true,
    chatFields,
    settings: settingFlagsFrom(flags, 'model'),
    system: flags.system,
    image: { aspect: image.aspect, format: flags.format === undefined ? undefined : image.format, seed: image.seed, negative: image.negative },
    dryRun: flags.dryRun === true,
    params: parseParams(flags.param ?? [], { ...CHAT_OWNED, ...IMAGE_OWNED }),
    extract: flags.extractLast === true ? 'last' : flags.extract === true ? 'all' : undefined,
    json: flags.json === true,
    metadata: flags.metadata !== false,
    role: flags.role === undefined ? undefined : parseRoleName(flags.role, '--role'),
    vars: parseVars(flags.var ?? []),
  };
}
