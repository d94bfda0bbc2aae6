/** --continue, --session and --no-save → the conversation a chat adds to. */
import { ConversationSession } from '../../conversations/session.js';
import type { ConversationStore } from '../../conversations/store.js';
import { UsageError } from '../../core/errors.js';
import type { ResolvedSettings } from '../../factory.js';
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

/**
 * The model for the next turn: one named with `-m` wins; then the role's (chosen for this chat,
 * so it beats the environment and the stored setting); otherwise a resumed conversation keeps
 * its own; otherwise the setting (environment, stored, default).
 */
export function chatModel(settings: ResolvedSettings, session: ConversationSession, role?: Role): string {
  if (settings.model.source === 'flag') return settings.model.value;
  return role?.model ?? session.model ?? settings.model.value;
}

/** `-s` given: the conversation's system message becomes it (an empty one removes it). */
export function applySystemFlag(session: ConversationSession, system: string | undefined): void {
  if (system !== undefined && system !== session.system) session.setSystem(system.trim() || undefined);
}
