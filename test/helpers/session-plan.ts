/**
 * The ChatPlan of a plain `svc chat` session (no flags), for tests that drive the session
 * in-process; `conversation` picks the conversation (by default the one named "talk").
 */
import type { ChatPlan, ConversationChoice } from '../../src/commands/chat/options.js';

export function sessionPlan(conversation: ConversationChoice = { continueLatest: false, sessionName: 'talk', save: true }): ChatPlan {
  return {
    words: [],
    fields: {},
    system: undefined,
    stream: true,
    json: false,
    usage: false,
    stdin: false,
    interactive: true,
    conversation,
    settings: {},
  };
}
