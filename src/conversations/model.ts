/**
 * A saved conversation, as a log of records replayed into turns. One JSON record per line: an
 * append is one write, so two processes adding turns at once both keep theirs, and a crash
 * mid-write damages at most the last line, which reading skips.
 */
import type { ContentPart, RequestMessage, Usage } from '../api/chat-types.js';
import { imagePart, type ImageDetail } from '../api/content-parts.js';
import { ImageStoreError, keptImageDataUrl, readKeptImage, type KeptExtension } from '../storage/image-store.js';
import { onCompactRecord, onUndo, type Compaction, type CompactRecord } from './compaction-record.js';

/**
 * A file attached to a user message: where its fenced block is in the message's text (UTF-16
 * offsets, end exclusive), so /history can show it as its name and size. The text itself is
 * kept in the message, as sent, so that --continue sends it again exactly.
 */
export interface AttachmentRef {
  name: string;
  bytes: number;
  start: number;
  end: number;
}

/**
 * An image sent with a user message, after its text. A picture from the disk is kept once in
 * svc's data folder under its hash (storage/image-store.ts) and named here by `sha256` and `ext`
 * with its size and pixels, never its bytes; an http(s) address is kept as `url`, as it was sent.
 */
export interface ImageRef {
  /** The file as the user named it (or the address). */
  name: string;
  sha256?: string;
  ext?: KeptExtension;
  /** The bytes sent, and the picture's size in pixels as sent. */
  bytes?: number;
  width?: number;
  height?: number;
  url?: string;
  /** `--image-detail`, when one was chosen. */
  detail?: ImageDetail;
}

/** The `data:` URL of a kept image (the session reads it from the store, or has it in memory). */
export type ImageUrlOf = (image: ImageRef) => string;

/** The URL of each image as sent: its address, or its kept bytes read back from `dataDir`. */
export function keptImageUrls(dataDir: string): ImageUrlOf {
  return (image) => {
    if (image.url !== undefined) return image.url;
    if (image.sha256 === undefined || image.ext === undefined) throw new ImageStoreError(`the image ${image.name} of this conversation names no kept file`);
    return keptImageDataUrl(readKeptImage(dataDir, image.sha256, image.ext), image.ext);
  };
}

/**
 * A user message's content: its text alone, or with images the text as a `text` part (left
 * out when empty) and each image as an `image_url` part.
 */
export function userContent(text: string, images: readonly ImageRef[] | undefined, urlOf: ImageUrlOf): string | ContentPart[] {
  if (!images || images.length === 0) return text;
  return [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...images.map((image) => imagePart(image.url ?? urlOf(image), image.detail))];
}

/**
 * One call the model made in a tool loop, and what went back to it. Call and result are kept
 * together, so a saved turn always holds a result for every call (a history the service takes).
 */
export interface ToolCallRecord {
  /** The call's id, as the model gave it (or as svc named it, when the model gave none). */
  id: string;
  /** The function called, as the model named it. */
  name: string;
  /** Its arguments as the model sent them: JSON text, which may be invalid. */
  arguments: string;
  /** Which tool it was, `server.tool`, when it was one on offer. */
  tool?: string;
  /** The text that went back to the model as the tool's result. */
  result: string;
  /** The result is an error (the tool failed, or svc could not run the call). */
  isError?: boolean;
  /** Nobody let it run: a person said no, or no one could approve it. */
  declined?: boolean;
}

/** A reply of the model that called tools: the text that came with the calls ('' for none), and the calls with their results, in order. */
export interface ToolStep {
  text: string;
  calls: ToolCallRecord[];
}

export interface Turn {
  /** The user's message as sent: attached files included. */
  user: string;
  /** The files attached to it, when there were any. */
  files?: AttachmentRef[];
  /** The images sent with it, after its text (older svc reads the turn as its text alone). */
  images?: ImageRef[];
  /**
   * The tool loop between the message and the reply: each reply that called tools, with the
   * results sent back. Absent when no tool was called; older svc reads the turn without it.
   */
  steps?: ToolStep[];
  /** The model's final reply (after any tool steps). */
  assistant: string;
  /**
   * The model's reasoning before its reply (`reasoning_content`, `reasoning`), when it sent any:
   * kept to read back, never sent to the service again (toMessages reads only `assistant`).
   */
  reasoning?: string;
  /**
   * A short random name of this turn, so an undo names the turn it drops (absent in files from
   * before it was kept).
   */
  id?: string;
  /** The reply was cut short (Ctrl-C, a dropped connection): kept as far as it came. */
  interrupted?: boolean;
  model?: string;
  usage?: Usage;
  at: string;
}

/**
 * An image made with /image in the session: kept in the conversation's log and shown in its
 * history, never sent to the chat model (toMessages reads only the system message and turns).
 */
export interface ImageNote {
  prompt: string;
  revisedPrompt?: string;
  /** The options as typed, e.g. { aspect: '16:9', seed: '7' }: what to give again to redo it. */
  options: Record<string, string>;
  /** Where the file was saved, absolute. */
  path: string;
  at: string;
}

export type ConversationRecord =
  | { type: 'start'; v: 1; name: string; created: string }
  | ({ type: 'turn' } & Turn)
  | { type: 'system'; content: string | null; at: string }
  /** `model: null`: back to the model the settings give (a /model the service refused). */
  | { type: 'model'; model: string | null; at: string }
  /** `turn`: the id of the turn it drops (absent when that turn had none: the last turn). */
  | { type: 'undo'; at: string; turn?: string }
  /** Older svc skips it as "not a conversation record" (records.ts), losing nothing else. */
  | ({ type: 'image' } & ImageNote)
  /** The turns before it summarised (compaction.ts); older svc skips it and sends every turn. */
  | CompactRecord;

export interface Conversation {
  name: string;
  created: string;
  updated: string;
  system: string | undefined;
  /** The model chosen with /model, if any; otherwise settings decide. */
  model: string | undefined;
  turns: Turn[];
  /** Images made in the session, each with how many turns came before it (for the history). */
  images: Array<ImageNote & { afterTurn: number }>;
  /** The compactions in force, oldest first: the last one decides what is sent (compaction.ts). */
  compactions: Compaction[];
  /** Tokens of every reply (and summary) in the log, those later undone or retried included: they were used. */
  spent: Usage;
  /** The same, per model (the turn's model; '' for a turn that names none): what a cost is made of. */
  spentByModel: Record<string, Usage>;
}

/** No tokens yet. */
export function noUsage(): Usage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

/** Add `usage` (when the service reported it) into `total`. */
export function addUsage(total: Usage, usage: Usage | undefined): void {
  if (!usage) return;
  total.prompt_tokens += usage.prompt_tokens;
  total.completion_tokens += usage.completion_tokens;
  total.total_tokens += usage.total_tokens;
}

/**
 * An empty per-model record. Without a prototype, so a model named `__proto__`, `constructor` or
 * `toString` is a key like any other instead of reaching Object.prototype.
 */
export function perModel<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Add a turn's `usage` into the per-model totals (made by perModel). */
export function addUsageOfModel(byModel: Record<string, Usage>, model: string | undefined, usage: Usage | undefined): void {
  if (!usage) return;
  addUsage((byModel[model ?? ''] ??= noUsage()), usage);
}

/** The later of two ISO times (an empty one is never later). */
function later(a: string, b: string): string {
  return b > a ? b : a;
}

/**
 * Replay records into the conversation they describe. Its last change is the latest time in the
 * log: records are appended as things happen, and a fork starts now with turns from before.
 */
export function replay(name: string, records: ConversationRecord[]): Conversation {
  const conversation: Conversation = { name, created: '', updated: '', system: undefined, model: undefined, turns: [], images: [], compactions: [], spent: noUsage(), spentByModel: perModel() };
  for (const record of records) {
    switch (record.type) {
      case 'start':
        conversation.created = record.created;
        conversation.updated = later(conversation.updated, record.created);
        break;
      case 'turn': {
        const { type: _type, ...turn } = record;
        conversation.turns.push(turn);
        addUsage(conversation.spent, turn.usage);
        addUsageOfModel(conversation.spentByModel, turn.model, turn.usage);
        conversation.updated = later(conversation.updated, record.at);
        break;
      }
      case 'system':
        conversation.system = record.content ?? undefined;
        conversation.updated = later(conversation.updated, record.at);
        break;
      case 'model':
        conversation.model = record.model ?? undefined;
        conversation.updated = later(conversation.updated, record.at);
        break;
      case 'undo': {
        // The turn named, not merely the last one: another svc may have added a turn to the same
        // conversation after the session that undoes read it (two processes, one file).
        const index = record.turn === undefined ? conversation.turns.length - 1 : conversation.turns.findLastIndex((turn) => turn.id === record.turn);
        if (index !== -1) {
          conversation.turns.splice(index, 1);
          // An undo past a compaction (the turn was there when it was made) undoes it too.
          conversation.compactions = onUndo(conversation.compactions, index);
        }
        conversation.updated = later(conversation.updated, record.at);
        break;
      }
      case 'compact':
        conversation.compactions = onCompactRecord(conversation.compactions, record);
        // The summary request's tokens were used, as a reply's are.
        addUsage(conversation.spent, record.usage);
        addUsageOfModel(conversation.spentByModel, record.model, record.usage);
        conversation.updated = later(conversation.updated, record.at);
        break;
      case 'image': {
        const { type: _type, ...image } = record;
        conversation.images.push({ ...image, afterTurn: conversation.turns.length });
        conversation.updated = later(conversation.updated, record.at);
        break;
      }
    }
  }
  return conversation;
}

/**
 * The messages array the service expects: the system message, then each turn: the user's
 * message, each tool step (the assistant's calls, then one `tool` message per call), the reply.
 * An interrupted reply goes as far as it came; an empty one is left out (the user spoke, nothing
 * came back).
 */
export function toMessages(conversation: Pick<Conversation, 'system' | 'turns'>, urlOf: ImageUrlOf = noImages): RequestMessage[] {
  const messages: RequestMessage[] = [];
  if (conversation.system) messages.push({ role: 'system', content: conversation.system });
  for (const turn of conversation.turns) {
    messages.push({ role: 'user', content: userContent(turn.user, turn.images, urlOf) });
    for (const step of turn.steps ?? []) messages.push(...stepMessages(step));
    if (turn.assistant !== '') messages.push({ role: 'assistant', content: turn.assistant });
  }
  return messages;
}

function noImages(image: ImageRef): string {
  throw new Error(`no store to read the image ${image.name} from`);
}

/** A tool step as messages: the assistant's message with its calls, then each call's result. */
export function stepMessages(step: ToolStep): RequestMessage[] {
  return [
    {
      role: 'assistant',
      content: step.text === '' ? null : step.text,
      tool_calls: step.calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
    },
    ...step.calls.map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: call.result })),
  ];
}

/** The first line of `text`, its ends trimmed, uncut. */
export function leadingLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** The first line of `text`, cut to `width` characters with an ellipsis. */
export function firstLineOf(text: string, width = 60): string {
  return cutLine(leadingLine(text), width);
}

/** `line` as it fits in `width` characters: cut, with an ellipsis, when longer. */
export function cutLine(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
