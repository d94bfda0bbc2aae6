/** --continue, --session and --no-save → the conversation a chat adds to. */
import type { ApiClient } from '../../api/client.js';
import { defaultChatModel, namedChatModel, type DefaultModelPlace } from '../../chat/model-choice.js';
import { ConversationSession } from '../../conversations/session.js';
import type { ConversationStore } from '../../conversations/store.js';
import { UsageError } from '../../core/errors.js';
import type { Factory, ResolvedSettings } from '../../factory.js';
import type { ContextWindowSettings } from '../../chat/context-window.js';
import { cacheDir } from '../../storage/paths.js';
import type { Role } from '../../roles/role-file.js';
import type { ConversationChoice } from './options.js';

/**
 * The conversation to add to, for a choice parseChatOptions checked. Everything that can be known
 * before sending is checked here: a name that is not a conversation, a folder where a turn could
 * not be saved (exit 1, nothing sent).
 */
export function openConversation(store: ConversationStore, choice: ConversationChoice): ConversationSession {
  const session = chooseConversation(store, choice);
  if (choice.save) store.checkWritable(session.name);
  return session;
}

function chooseConversation(store: ConversationStore, choice: ConversationChoice): ConversationSession {
  if (choice.sessionName !== undefined) return ConversationSession.resume(store, choice.sessionName, choice.save);
  if (choice.continueLatest) {
    const latest = store.latest();
    if (!latest) throw new UsageError('there is no saved conversation to continue', { hint: 'start one with `svc chat`' });
    return ConversationSession.resume(store, latest, choice.save);
  }
  return ConversationSession.fresh(choice.save ? store : undefined);
}

/** The model for the next turn (chat/model-choice.ts namedChatModel), else the setting's default. */
export function chatModel(settings: ResolvedSettings, session: ConversationSession, role?: Role): string {
  return namedChatModel(settings.model, role?.model, session.model) ?? settings.model.value;
}

/** The model of the next turn, and where svc looked it up when nobody named one. */
export interface ModelChoice {
  model: string;
  /** Set when svc chose the model itself (chat/model-choice.ts): a refusal then says to set one. */
  unset?: DefaultModelPlace;
}

/**
 * chatModel, except that when nothing names a model (no -m, role, conversation model, SVC_MODEL or
 * stored setting) the service's own list settles it (chat/model-choice.ts): asked once per base
 * URL with `client`, read from the cache without one (a dry run).
 */
export async function chooseChatModel(env: Record<string, string | undefined>, settings: ResolvedSettings, session: ConversationSession, role: Role | undefined, client: ApiClient | undefined, signal?: AbortSignal): Promise<ModelChoice> {
  const named = namedChatModel(settings.model, role?.model, session.model);
  const baseUrl = settings.baseUrl.value;
  if (named !== undefined || baseUrl === undefined) return { model: named ?? settings.model.value };
  const place = { baseUrl, cache: cacheDir(env), fallback: settings.model.value };
  return { model: await defaultChatModel(place, client, signal), unset: place };
}

/** `-s` given: the conversation's system message becomes it (an empty one removes it). */
export function applySystemFlag(session: ConversationSession, system: string | undefined): void {
  if (system !== undefined && system !== session.system) session.setSystem(system.trim() || undefined);
}

/** The `contextWindow` setting and the `contextWindow.MODEL` ones, as the window check takes them. */
export async function contextWindowSettings(factory: Factory, settings: ResolvedSettings): Promise<ContextWindowSettings> {
  return { all: settings.contextWindow.value, perModel: Object.fromEntries(await factory.contextWindows()) };
}
