/**
 * One request of a batch, sent and turned into its output record. Chat answers are recorded
 * whole; images are saved as svc image saves them (images/save-generation.ts: decoded straight
 * to temporary files beside their final names, checked to be the format asked for, their
 * provenance written in) as `<images-dir>/<custom_id>.<ext>`, never replacing a file; the
 * record's body then carries `path` instead of `b64_json`.
 *
 * Interruption and a refused key are thrown (the batch stops); every other failure is a record.
 */
import type { Usage } from '../../api/chat-types.js';
import { basename, join } from 'node:path';
import { runChat } from '../../api/chat.js';
import type { ApiClient } from '../../api/client.js';
import { generateImages, type ImageGeneration } from '../../api/images/generate.js';
import { ApiError, AuthError, InterruptedError, ReplyCutError, SvcError } from '../../core/errors.js';
import { emptyReplyNote } from '../../api/reply-checks.js';
import { isObject } from '../../core/json.js';
import { namedTarget, saveGeneration, temporaryFiles } from '../../images/save-generation.js';
import { extractedCode } from '../../chat/code-blocks.js';
import { answerRecord, errorRecord, failureRecord, type OutputRecord } from './records.js';
import type { BatchRequest } from './requests.js';

export interface ImagesFolder {
  /** Absolute, for writing. */
  dir: string;
  /** As the user would name it (relative to where svc runs), for the paths in the output. */
  shown: string;
}

export interface PerformContext {
  client: ApiClient;
  signal: AbortSignal;
  images: ImagesFolder;
  /** `--extract` / `--extract-last`: chat records get an `extract` field with the answer's code. */
  extract?: 'all' | 'last' | undefined;
  /** Say something on stderr (a warning about one request). */
  warn?: (note: string) => void;
  /** Write each image's provenance into its file (--no-metadata, the imageMetadata setting). */
  metadata?: boolean;
}

export interface Performed {
  record: OutputRecord;
  succeeded: boolean;
  /** The tokens the service counted for it (zeros when it said nothing). */
  usage: Usage;
  /** The model it went to, for its price. */
  model: string;
  /** Why it failed, in a few words with its custom_id, for the summary. */
  failure?: string;
  /** Why its reply was empty (an empty reply is a success: the summary counts them). */
  empty?: string;
  /** Its custom_id, when a reply stopped at the token limit (finish_reason: length; a success too, counted). */
  cut?: string;
}

/** The counts of an answer's `usage`, zeros for what it lacks (a service may send only some). */
function usageOf(usage: unknown): Usage {
  const count = (field: string): number => (isObject(usage) && typeof usage[field] === 'number' && Number.isFinite(usage[field]) ? usage[field] : 0);
  const prompt = count('prompt_tokens');
  const completion = count('completion_tokens');
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: count('total_tokens') || prompt + completion };
}

async function performChat(request: Extract<BatchRequest, { kind: 'chat' }>, context: PerformContext): Promise<Performed> {
  let answer = { status: 200, requestId: undefined as string | undefined };
  // A line's record holds the failure alone: what arrived of a reply cut short is not kept.
  const completion = await runChat(context.client, request.body, { signal: context.signal, onResponse: (seen) => (answer = seen) }).catch((error: unknown) => {
    throw error instanceof ReplyCutError ? error.cause : error;
  });
  const empty = emptyReplyNote(completion)?.replace('--max-tokens', 'max_tokens');
  const record = answerRecord(request.customId, answer.status, answer.requestId, completion);
  // null when the answer has no fenced block: the field is there on every chat line, so a script can rely on it.
  if (context.extract) record.extract = extractedCode(completion.choices[0]?.message.content ?? '', context.extract) ?? null;
  const cut = completion.choices.some((choice) => choice.finish_reason === 'length');
  return { record, succeeded: true, usage: usageOf(completion.usage), model: request.body.model, ...(empty ? { empty } : {}), ...(cut ? { cut: request.customId } : {}) };
}

/**
 * The answer's body with each image's `b64_json` replaced by the path it was saved to; an image
 * given as a `url` keeps it, with `path` beside it.
 */
function bodyWithPaths(result: ImageGeneration, shownPaths: string[]): Record<string, unknown> {
  const data = Array.isArray(result.answer.data) ? result.answer.data : [];
  return {
    ...result.answer,
    data: data.map((item: unknown, index) => {
      if (!isObject(item)) return item;
      const entries = Object.entries(item).map(([key, value]) => (key === 'b64_json' ? ['path', shownPaths[index] ?? null] : [key, value]));
      if (!('b64_json' in item)) entries.push(['path', shownPaths[index] ?? null]);
      return Object.fromEntries(entries);
    }),
  };
}

async function performImage(request: Extract<BatchRequest, { kind: 'image' }>, context: PerformContext): Promise<Performed> {
  const { dir, shown } = context.images;
  const target = namedTarget(dir, request.customId, request.format);
  // Checked before sending, so a taken name costs no image; saving refuses it again at the end.
  if (target.taken) {
    const message = `${target.path} already exists; it was kept, and the request was not sent`;
    return { record: errorRecord(request.customId, 'file_exists', message), succeeded: false, usage: usageOf(undefined), model: request.body.model, failure: `${request.customId}: ${message}` };
  }
  const provenance = context.metadata === true;
  const result = await generateImages(context.client, request.body, { signal: context.signal, openSink: temporaryFiles(dir, provenance ? request.body : undefined) });
  let saved;
  try {
    saved = await saveGeneration(result, request.body, {
      to: { paths: target.paths },
      provenance: provenance ? { warn: (note) => context.warn?.(`${request.customId}: ${note}`) } : undefined,
    });
  } catch (error) {
    if (!(error instanceof SvcError)) throw error;
    return { record: errorRecord(request.customId, 'image_not_saved', error.message), succeeded: false, usage: usageOf(result.usage), model: request.body.model, failure: `${request.customId}: ${error.message}` };
  }
  const body = bodyWithPaths(result, saved.map(({ path }) => join(shown, basename(path))));
  return { record: answerRecord(request.customId, result.status, result.requestId, body), succeeded: true, usage: usageOf(result.usage), model: request.body.model };
}

/** Send one request; its record, or a thrown InterruptedError / AuthError that stops the batch. */
export async function perform(request: BatchRequest, context: PerformContext): Promise<Performed> {
  try {
    return request.kind === 'chat' ? await performChat(request, context) : await performImage(request, context);
  } catch (error) {
    if (context.signal.aborted) throw new InterruptedError();
    if (error instanceof AuthError || error instanceof InterruptedError || !(error instanceof SvcError)) throw error;
    const status = error instanceof ApiError && error.status > 0 ? ` (HTTP ${error.status})` : '';
    return { record: failureRecord(request.customId, error), succeeded: false, usage: usageOf(undefined), model: request.body.model, failure: `${request.customId}: ${error.message}${status}` };
  }
}
