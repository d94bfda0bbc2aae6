/**
 * /history: the conversation so far, on stderr, in order: the system message, each turn (a file
 * attached to a message shown as its name and size, an image sent with it by name, size and
 * pixels), each image made with /image, the summary in force after the turns it stands for
 * (/compact: the model is sent it, not them), and a message not sent. When the session renders
 * replies and stderr is a terminal, each reply is shown
 * rendered, as it looked when it came; otherwise as text, neutralised, one line per message. The
 * stored turns are never changed: /copy and /save still give the Markdown as the service sent it.
 */
import { summariseMessage, withImagesNamed } from '../../../attachments/message.js';
import { cutLine, firstLineOf, type Turn } from '../../../conversations/model.js';
import { callName, resultKind } from '../../../conversations/tool-steps.js';
import { timeline } from '../../../conversations/timeline.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import { imageHistoryLine } from './image-command.js';
import { say, type SessionState } from './session-state.js';
import type { Compaction } from '../../../conversations/compaction-record.js';
import { coveredTurns, inTheirPlace } from '../../../conversations/compaction.js';

export async function showHistory(state: SessionState): Promise<void> {
  const { session } = state;
  const render = state.render && state.io.stderrIsTTY ? await replyRenderer(state) : undefined;
  if (session.system) say(state, `[system] ${neutraliseForTerminal(session.system)}`);
  let shown = 0;
  let turns = 0;
  const compaction = session.activeCompaction;
  for (const entry of timeline({ turns: session.turns, images: session.images })) {
    if (render && (shown > 0 || session.system)) say(state, '');
    shown += 1;
    if (entry.kind === 'image') {
      say(state, imageHistoryLine(entry.image, state.io.cwd));
      continue;
    }
    turns += 1;
    if (compaction && turns === compaction.through + 1) sayCompaction(state, compaction, render !== undefined);
    const { turn } = entry;
    say(state, `[you] ${neutraliseForTerminal(withImagesNamed(summariseMessage(turn.user, turn.files), turn.images, ' '))}`);
    for (const step of turn.steps ?? []) {
      for (const call of step.calls) {
        const kind = resultKind(call);
        say(state, `[tool] ${neutraliseForTerminal(`${callName(call)} ${cutLine(call.arguments.replace(/\s+/g, ' '), 120)}`)}`);
        say(state, `[result${kind ? `, ${kind}` : ''}] ${neutraliseForTerminal(firstLineOf(call.result, 120))}`);
      }
    }
    if (render) {
      say(state, `[${neutraliseForTerminal(turn.model ?? 'assistant')}]`);
      render(turn);
    } else {
      say(state, `[${neutraliseForTerminal(turn.model ?? 'assistant')}] ${neutraliseForTerminal(turn.assistant)}${turn.interrupted ? ' [interrupted]' : ''}`);
    }
  }
  if (compaction && turns === compaction.through) sayCompaction(state, compaction, render !== undefined);
  const { unsent } = state;
  if (unsent !== undefined) say(state, `[you] ${neutraliseForTerminal(withImagesNamed(summariseMessage(unsent.text, unsent.files), unsent.images?.map((image) => image.ref), ' '))} [not sent: /retry sends it]`);
  else if (shown === 0) say(state, '(nothing yet)');
}

/** Where the summary in force stands: after the turns it covers, which the model is no longer sent. */
function sayCompaction(state: SessionState, compaction: Compaction, spaced: boolean): void {
  say(state, `[summary of ${coveredTurns(compaction)}, ${inTheirPlace(compaction)}] ${neutraliseForTerminal(compaction.summary)}`);
  if (spaced) say(state, '');
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
