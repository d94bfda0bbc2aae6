/**
 * A line of a conversation file → the record it holds, or nothing when it is not one svc wrote
 * (`null`, a number, `"created": 5`, `"user": 42`, a record type from a newer svc). Checked field
 * by field, because the rest of svc trusts a record's types: one bad line must cost that line,
 * not the listing of every conversation.
 */
import type { Usage } from '../api/chat-types.js';
import { isObject, type JsonObject } from '../core/json.js';
import { IMAGE_DETAILS, type ImageDetail } from '../api/content-parts.js';
import { KEPT_EXTENSIONS, type KeptExtension } from '../storage/image-store.js';
import { compactRecordOf } from './compaction-record.js';
import type { AttachmentRef, ConversationRecord, ImageNote, ImageRef, ToolCallRecord, ToolStep, Turn } from './model.js';

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function usageOf(value: unknown): Usage | undefined | false {
  if (value === undefined) return undefined;
  if (!isObject(value) || !isCount(value.prompt_tokens) || !isCount(value.completion_tokens) || !isCount(value.total_tokens)) return false;
  return { prompt_tokens: value.prompt_tokens, completion_tokens: value.completion_tokens, total_tokens: value.total_tokens };
}

/**
 * The attachments of a turn, each inside the message and after the one before; a list that does
 * not fit the message (a hand edit) is dropped, the turn kept: the files are in its text anyway.
 */
function filesOf(value: unknown, user: string): AttachmentRef[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const files: AttachmentRef[] = [];
  let after = 0;
  for (const item of value as unknown[]) {
    if (!isObject(item) || !isString(item.name) || !isCount(item.bytes) || !isCount(item.start) || !isCount(item.end)) return undefined;
    if (item.start < after || item.end < item.start || item.end > user.length) return undefined;
    files.push({ name: item.name, bytes: item.bytes, start: item.start, end: item.end });
    after = item.end;
  }
  return files.length > 0 ? files : undefined;
}

/**
 * The images of a turn: each kept one by hash and extension (checked again when read back,
 * storage/image-store.ts), or an address. A list with anything else (a hand edit) is dropped.
 */
function imagesOf(value: unknown): ImageRef[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const images: ImageRef[] = [];
  for (const item of value as unknown[]) {
    if (!isObject(item) || !isString(item.name)) return undefined;
    const { sha256, ext, url, detail } = item;
    if (detail !== undefined && !(IMAGE_DETAILS as readonly unknown[]).includes(detail)) return undefined;
    const chosen = detail === undefined ? {} : { detail: detail as ImageDetail };
    if (isString(url)) {
      images.push({ name: item.name, url, ...chosen });
      continue;
    }
    if (!isString(sha256) || !(KEPT_EXTENSIONS as readonly unknown[]).includes(ext)) return undefined;
    const sizes = Object.fromEntries((['bytes', 'width', 'height'] as const).filter((key) => isCount(item[key])).map((key) => [key, item[key] as number]));
    images.push({ name: item.name, sha256, ext: ext as KeptExtension, ...sizes, ...chosen });
  }
  return images.length > 0 ? images : undefined;
}

function callOf(value: unknown): ToolCallRecord | undefined {
  if (!isObject(value) || !isString(value.id) || !isString(value.name) || !isString(value.arguments) || !isString(value.result)) return undefined;
  const { tool, isError, declined } = value;
  if ((tool !== undefined && !isString(tool)) || (isError !== undefined && typeof isError !== 'boolean') || (declined !== undefined && typeof declined !== 'boolean')) return undefined;
  return { id: value.id, name: value.name, arguments: value.arguments, ...(tool === undefined ? {} : { tool }), result: value.result, ...(isError ? { isError } : {}), ...(declined ? { declined } : {}) };
}

/**
 * A turn's tool steps, each a call list with every call's result. Anything off (a hand edit)
 * drops the steps, not the turn: its user message and reply still make a valid history.
 */
function stepsOf(value: unknown): ToolStep[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const steps: ToolStep[] = [];
  for (const item of value as unknown[]) {
    if (!isObject(item) || !isString(item.text) || !Array.isArray(item.calls) || item.calls.length === 0) return undefined;
    const calls = (item.calls as unknown[]).map(callOf);
    if (calls.some((call) => call === undefined)) return undefined;
    steps.push({ text: item.text, calls: calls as ToolCallRecord[] });
  }
  return steps.length > 0 ? steps : undefined;
}

function turnOf(value: JsonObject): (Turn & { type: 'turn' }) | undefined {
  const { user, assistant, at, interrupted, model, reasoning, id } = value;
  const usage = usageOf(value.usage);
  if (!isString(user) || !isString(assistant) || !isString(at) || usage === false) return undefined;
  if (interrupted !== undefined && typeof interrupted !== 'boolean') return undefined;
  if (model !== undefined && !isString(model)) return undefined;
  if (reasoning !== undefined && !isString(reasoning)) return undefined;
  if (id !== undefined && !isString(id)) return undefined;
  const files = filesOf(value.files, user);
  const images = imagesOf(value.images);
  const steps = stepsOf(value.steps);
  return {
    type: 'turn',
    ...(id === undefined ? {} : { id }),
    user,
    ...(files ? { files } : {}),
    ...(images ? { images } : {}),
    ...(steps ? { steps } : {}),
    assistant,
    ...(reasoning ? { reasoning } : {}),
    ...(interrupted ? { interrupted } : {}),
    ...(model === undefined ? {} : { model }),
    ...(usage ? { usage } : {}),
    at,
  };
}

function imageOf(value: JsonObject): (ImageNote & { type: 'image' }) | undefined {
  const { prompt, revisedPrompt, options, path, at } = value;
  if (!isString(prompt) || !isString(path) || !isString(at) || !isObject(options)) return undefined;
  if (revisedPrompt !== undefined && !isString(revisedPrompt)) return undefined;
  if (!Object.values(options).every(isString)) return undefined;
  return { type: 'image', prompt, ...(revisedPrompt === undefined ? {} : { revisedPrompt }), options: { ...(options as Record<string, string>) }, path, at };
}

/** The record `value` holds, with only the fields svc knows; undefined when it is not a record. */
export function recordOf(value: unknown): ConversationRecord | undefined {
  if (!isObject(value)) return undefined;
  const { at } = value;
  switch (value.type) {
    case 'start':
      return value.v === 1 && isString(value.name) && isString(value.created) ? { type: 'start', v: 1, name: value.name, created: value.created } : undefined;
    case 'turn':
      return turnOf(value);
    case 'system':
      return isString(at) && (isString(value.content) || value.content === null) ? { type: 'system', content: value.content, at } : undefined;
    case 'model':
      return isString(at) && (isString(value.model) || value.model === null) ? { type: 'model', model: value.model, at } : undefined;
    case 'undo': {
      const { turn } = value;
      if (!isString(at) || (turn !== undefined && !isString(turn))) return undefined;
      return { type: 'undo', at, ...(turn === undefined ? {} : { turn }) };
    }
    case 'image':
      return imageOf(value);
    case 'compact':
      return compactRecordOf(value);
    default:
      return undefined;
  }
}
