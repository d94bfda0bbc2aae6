/**
 * The conversation in use: its state in memory and, unless --no-save, its log on disk, kept in
 * step. Every change is written as it happens, so leaving (or a crash) loses at most the reply
 * being streamed. A write that fails (a full disk) does not stop the conversation: it goes on in
 * memory, no longer saved, and the failure is kept for the caller to report.
 */
import type { ContentPart, RequestMessage, Usage } from '../api/chat-types.js';
import { describeSystemError } from '../core/system-errors.js';
import { ImageStoreError, keepImage, keptImageDataUrl, readKeptImage, type KeptExtension } from '../storage/image-store.js';
import { compactedMessages } from './compaction.js';
import { onUndo, type Compaction, type CompactRecord } from './compaction-record.js';
import { addUsage, addUsageOfModel, replay, type Conversation, type ConversationRecord, type ImageNote, type ImageRef, type Turn } from './model.js';
import { newConversationName } from '../core/names.js';
import type { ConversationStore } from './store.js';

/** Why the conversation stopped being saved. */
export interface SaveFailure {
  /** The file that could not be written. */
  path: string;
  /** Its folder, where the user has something to fix. */
  dir: string;
  /** The reason in words: "no space left on device (ENOSPC)". */
  reason: string;
}

/**
 * A name for a new turn, unique enough within one conversation: two processes may add turns in
 * the same millisecond, so the time alone cannot say which one an undo drops.
 */
function turnId(): string {
  return Math.random().toString(36).slice(2, 10).padEnd(8, '0');
}

export class ConversationSession {
  #conversation: Conversation;
  #store: ConversationStore | undefined;
  /** Nothing is written until there is something worth keeping (the first turn or setting). */
  #started: boolean;
  #saveFailure: SaveFailure | undefined;
  /** Where kept images are read from (svc's data folder); undefined with no store at all. */
  readonly #dataDir: string | undefined;
  /** The bytes of the images of this run, by hash: sent again without reading, kept with their turn. */
  readonly #images = new Map<string, { bytes: Buffer; ext: KeptExtension }>();
  /** Called once, when a write fails and the conversation stops being saved. */
  onSaveFailure: ((failure: SaveFailure) => void) | undefined;

  private constructor(conversation: Conversation, store: ConversationStore | undefined, started: boolean, dataDir: string | undefined) {
    this.#conversation = conversation;
    this.#store = store;
    this.#started = started;
    this.#dataDir = dataDir;
  }

  /** A new conversation; `store` undefined keeps it in memory only (--no-save). */
  static fresh(store: ConversationStore | undefined, name = newConversationName()): ConversationSession {
    const now = new Date().toISOString();
    return new ConversationSession(replay(name, [{ type: 'start', v: 1, name, created: now }]), store, false, store?.dataDir);
  }

  /**
   * Resume a saved conversation, or start one under that name if nothing has it yet. Something
   * else under that name (a folder, an unreadable file) is an error, found before anything is sent.
   */
  static resume(store: ConversationStore, name: string, save: boolean): ConversationSession {
    if (store.isFree(name)) return ConversationSession.fresh(save ? store : undefined, name);
    return new ConversationSession(store.read(name), save ? store : undefined, true, store.dataDir);
  }

  get name(): string {
    return this.#conversation.name;
  }
  /** True while changes are being written (not with --no-save, nor after a failed write). */
  get saved(): boolean {
    return this.#store !== undefined;
  }
  get saveFailure(): SaveFailure | undefined {
    return this.#saveFailure;
  }
  get turns(): readonly Turn[] {
    return this.#conversation.turns;
  }
  get system(): string | undefined {
    return this.#conversation.system;
  }
  get model(): string | undefined {
    return this.#conversation.model;
  }
  get images(): Conversation['images'] {
    return this.#conversation.images;
  }
  /** Tokens of every reply this conversation has had, undone and retried ones included. */
  get spent(): Readonly<Usage> {
    return this.#conversation.spent;
  }

  /** The same, per model: what its cost is made of. */
  get spentByModel(): Readonly<Record<string, Usage>> {
    return this.#conversation.spentByModel;
  }

  /** The compactions in force, oldest first (the last one decides what is sent). */
  get compactions(): readonly Compaction[] {
    return this.#conversation.compactions;
  }

  /** The compaction in force: its summary stands for the turns it covers. */
  get activeCompaction(): Compaction | undefined {
    return this.#conversation.compactions.at(-1);
  }

  /**
   * The messages to send, with `next` as the new user message when given: after a compaction its
   * summary in the system message and the turns after it (compaction.ts).
   */
  messages(next?: string | ContentPart[]): RequestMessage[] {
    const messages = compactedMessages(this.#conversation, this.activeCompaction, (image) => this.imageUrl(image));
    if (next !== undefined) messages.push({ role: 'user', content: next });
    return messages;
  }

  /** Hold an image of this run (its bytes as sent), to send again and to keep with its turn. */
  rememberImage(sha256: string, ext: KeptExtension, bytes: Buffer): void {
    this.#images.set(sha256, { bytes, ext });
  }

  /** The `data:` URL of a kept image: from this run's, else read back from svc's data folder. */
  imageUrl(image: ImageRef): string {
    if (image.url !== undefined) return image.url;
    const { sha256, ext } = image;
    if (sha256 === undefined || ext === undefined) throw new ImageStoreError(`the image ${image.name} of this conversation names no kept file`);
    let bytes = this.#images.get(sha256)?.bytes;
    if (bytes === undefined) {
      if (this.#dataDir === undefined) throw new ImageStoreError(`the image ${image.name} of this conversation was not kept`);
      bytes = readKeptImage(this.#dataDir, sha256, ext);
      this.#images.set(sha256, { bytes, ext });
    }
    return keptImageDataUrl(bytes, ext);
  }

  addTurn(turn: Omit<Turn, 'at' | 'id'>): void {
    const record = { type: 'turn' as const, id: turnId(), ...turn, at: new Date().toISOString() };
    this.#conversation.turns.push({ ...turn, id: record.id, at: record.at });
    addUsage(this.#conversation.spent, turn.usage);
    addUsageOfModel(this.#conversation.spentByModel, turn.model, turn.usage);
    this.#write(record, turn.images);
  }

  /** Keep an image made in the session (in the log and the history; never sent to the model). */
  addImage(image: Omit<ImageNote, 'at'>): void {
    const record = { type: 'image' as const, ...image, at: new Date().toISOString() };
    this.#conversation.images.push({ ...image, at: record.at, afterTurn: this.#conversation.turns.length });
    this.#write(record);
  }

  /** Keep a compaction (compaction.ts compactRecord): from now on its summary stands for the turns it covers. */
  addCompaction(record: CompactRecord): void {
    const { type: _type, ...compaction } = record;
    this.#conversation.compactions.push(compaction);
    // The summary's tokens count as a reply's do.
    addUsage(this.#conversation.spent, record.usage);
    addUsageOfModel(this.#conversation.spentByModel, record.model, record.usage);
    this.#write(record);
  }

  /**
   * Drop the last exchange; returns it, or undefined when there is none. A compaction made while
   * it was there is undone with it (`activeCompaction` tells what is in force after).
   */
  undo(): Turn | undefined {
    const turn = this.#conversation.turns.pop();
    if (turn) this.#conversation.compactions = onUndo(this.#conversation.compactions, this.#conversation.turns.length);
    if (turn) this.#write({ type: 'undo', at: new Date().toISOString(), ...(turn.id === undefined ? {} : { turn: turn.id }) });
    return turn;
  }

  setSystem(content: string | undefined): void {
    this.#conversation.system = content;
    this.#write({ type: 'system', content: content ?? null, at: new Date().toISOString() });
  }

  /** Choose the model; undefined goes back to the one the settings give. */
  setModel(model: string | undefined): void {
    this.#conversation.model = model;
    this.#write({ type: 'model', model: model ?? null, at: new Date().toISOString() });
  }

  /**
   * Write `record`; the images of this run it names are kept first (a turn never names an image
   * that is not on disk), each once: storage/image-store.ts finds one kept before.
   */
  #write(record: ConversationRecord, images: readonly ImageRef[] = []): void {
    const store = this.#store;
    if (!store) return;
    try {
      for (const image of images) {
        const held = image.sha256 === undefined ? undefined : this.#images.get(image.sha256);
        if (held) keepImage(store.dataDir, held.bytes, held.ext);
      }
      if (!this.#started) {
        store.create(this.name, new Date(this.#conversation.created));
        this.#started = true;
      }
      store.append(this.name, record);
    } catch (error) {
      // Writing on after a lost record would give a log that replays wrong (an undo of the wrong
      // turn): the conversation goes on in memory only, and the caller says so.
      this.#store = undefined;
      this.#saveFailure = { path: store.pathOf(this.name), dir: store.dir, reason: describeSystemError(error) };
      this.onSaveFailure?.(this.#saveFailure);
    }
  }
}
