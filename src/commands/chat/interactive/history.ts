/**
 * /history: the conversation so far, on stderr. When the session renders replies and stderr is
 * a terminal, each reply is shown rendered, as it looked when it came; otherwise as text,
 * neutralised, one line per message as before. The stored turns are never changed: /copy and
 * /save still give the Markdown as the service sent it.
 */
import type { Turn } from '../../../conversations/model.js';
import { neutraliseForTerminal } from '../../../terminal-text.js';
import type { SessionState } from './session-state.js';

function say(state: SessionState, text: string): void {
  state.io.stderr.write(`${text}\n`);
}

export async function showHistory(state: SessionState): Promise<void> {
  const { session } = state;
  const render = state.render && state.io.stderrIsTTY ? await replyRenderer(state) : undefined;
  if (session.system) say(state, `[system] ${neutraliseForTerminal(session.system)}`);
  for (const [index, turn] of session.turns.entries()) {
    if (render) {
      if (index > 0 || session.system) say(state, '');
      say(state, `[you] ${neutraliseForTerminal(turn.user)}`);
      say(state, `[${turn.model ?? 'assistant'}]`);
      render(turn);
    } else {
      say(state, `[you] ${neutraliseForTerminal(turn.user)}`);
      say(state, `[${turn.model ?? 'assistant'}] ${neutraliseForTerminal(turn.assistant)}${turn.interrupted ? ' [interrupted]' : ''}`);
    }
  }
  if (state.unsent !== undefined) say(state, `[you] ${neutraliseForTerminal(state.unsent)} [not sent: /retry sends it]`);
  else if (session.turns.length === 0) say(state, '(nothing yet)');
}

/** Draws one reply rendered on stderr; each reply gets its own renderer, so none spills into the next. */
async function replyRenderer(state: SessionState): Promise<(turn: Turn) => void> {
  const { terminalRenderer } = await import('../../../render/terminal-renderer.js');
  const stderr = state.io.stderr;
  return (turn) => {
    const renderer = terminalRenderer({ stream: stderr as { columns?: number }, env: state.io.env, write: (bytes) => stderr.write(bytes) });
    renderer.push(turn.assistant);
    renderer.end();
    if (turn.interrupted) say(state, '[interrupted]');
  };
}
