/**
 * The interactive session run in-process with typed lines from a ScriptedReader, against the
 * sandbox's service: the factory, settings, client, store and conversation set up as
 * `svc chat` does, then released. For tests of what a session does with its input.
 */
import { runSession, type SessionStart } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import type { ChatPlan } from '../../src/commands/chat/options.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { testIO } from './in-process.js';
import type { Sandbox } from './run-svc.js';
import { ScriptedReader } from './scripted-reader.js';
import { sessionPlan } from './session-plan.js';
import type { OpenTools } from '../../src/chat/tool-runner.js';
import { openChatTools } from '../../src/commands/chat/tool-turn.js';

export interface ScriptedSessionOptions {
  plan?: ChatPlan;
  /** More of what `svc chat` would give the session (a role, prices, the streamUsage switch). */
  start?: Partial<Pick<SessionStart, 'role' | 'prices' | 'streamUsage' | 'storedParams' | 'render' | 'windows' | 'autoCompact'>>;
  /** Set up the conversation before the first line (a role's system message, say). */
  prepare?: (session: SessionStart['session']) => void;
  /** Where the plan's --tools are found (test/helpers/test-tools.ts). */
  openTools?: OpenTools;
}

export async function runScriptedSession(sandbox: Sandbox, lines: string[], options: ScriptedSessionOptions = {}): Promise<{ stdout: string; stderr: string }> {
  const { io, stdout, stderr } = testIO({ env: { ...sandbox.env, CI: 'true' }, cwd: sandbox.home });
  const factory = createFactory(io);
  const plan = options.plan ?? sessionPlan();
  try {
    const settings = await factory.settings({});
    const client = await factory.apiClient(settings);
    const store = await factory.conversationStore();
    const session = openConversation(store, plan.conversation);
    options.prepare?.(session);
    const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
    const role = options.start?.role;
    const tools = options.openTools ? await openChatTools(options.openTools, plan.tools, role, () => undefined, context.signal) : undefined;
    await runSession({ plan, context, client, store, session, model: chatModel(settings, session, role), reader: new ScriptedReader(lines), terminal: { fd: -1 }, tools, ...options.start });
  } finally {
    await factory.dispose();
  }
  return { stdout: stdout.text(), stderr: stderr.text() };
}
