/**
 * The conversation in use: its state in memory and, unless --no-save, its log on disk, kept in
 * step. Every change is written as it happens, so leaving (or a crash) loses at most the reply
 * being streamed.
 */
import type { ChatMessage } from '../api/chat-types.js';
import { replay, toMessages, type Conversation, type ConversationRecord, type Turn } from './model.js';
import { newConversationName, type ConversationStore } from './store.js';

export class ConversationSession {
  #conversation: Conversation;
  readonly #store: ConversationStore | undefined;
  /** Nothing is written until there is something worth keeping (the first turn or setting). */
  #started: boolean;

  private constructor(conversation: Conversation, store: ConversationStore | undefined, started: boolean) {
    this.#conversation = conversation;
    this.#store = store;
    this.#started = started;
  }

  /** A new conversation; `store` undefined keeps it in memory only (--no-save). */
  static fresh(store: ConversationStore | undefined, name = newConversationName()): ConversationSession {
    const now = new Date().toISOString();
    return new ConversationSession(replay(name, [{ type: 'start', v: 1, name, created: now }]), store, false);
  }

  /** Resume a saved conversation, or start one under that name if there is none yet. */
  static resume(store: ConversationStore, name: string, save: boolean): ConversationSession {
    if (!store.exists(name)) return ConversationSession.fresh(save ? store : undefined, name);
    return new ConversationSession(store.read(name), save ? store : undefined, true);
  }

  get name(): string {
    return this.#conversation.name;
  }
  get saved(): boolean {
    return this.#store !== undefined;
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

  /** The messages to send, with `next` as the new user message when given. */
  messages(next?: string): ChatMessage[] {
    const messages = toMessages(this.#conversation);
    if (next !== undefined) messages.push({ role: 'user', content: next });
    return messages;
  }

  addTurn(turn: Omit<Turn, 'at'>): void {
    const record = { type: 'turn' as const, ...turn, at: new Date().toISOString() };
    this.#conversation.turns.push({ ...turn, at: record.at });
    this.#write(record);
  }

  /** Drop the last exchange; returns it, or undefined when there is none. */
  undo(): Turn | undefined {
    const turn = this.#conversation.turns.pop();
    if (turn) this.#write({ type: 'undo', at: new Date().toISOString() });
    return turn;
  }

  setSystem(content: string | undefined): void {
    this.#conversation.system = content;
    this.#write({ type: 'system', content: content ?? null, at: new Date().toISOString() });
  }

  setModel(model: string): void {
    this.#conversation.model = model;
    this.#write({ type: 'model', model, at: new Date().toISOString() });
  }

  #write(record: ConversationRecord): void {
    if (!this.#store) return;
    if (!this.#started) {
      this.#store.create(this.name, new Date(this.#conversation.created));
      this.#started = true;
    }
    this.#store.append(this.name, record);
  }
}
