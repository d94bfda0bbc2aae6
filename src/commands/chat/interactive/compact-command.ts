/**
 * /compact [N]: the model summarises all but the last N turns (default 2), the summary shown as
 * it streams, as a reply is; from then on the conversation sends the summary and those N turns
 * (commands/chat/compact.ts). Ctrl-C stops it and a failure is reported as a turn's is: either
 * way nothing is kept.
 */
import { DEFAULT_KEEP } from '../../../conversations/compaction.js';
import { addUsage, addUsageOfModel } from '../../../conversations/model.js';
import { parseIntegerInRange } from '../../../core/parse-values.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import { reportError } from '../../../terminal/report-error.js';
import { replyUsageLine } from '../../../settings/prices.js';
import { compactedNote, compactSession, EmptySummaryError, nothingNote } from '../compact.js';
import { say, sessionRequest, type SessionState } from './session-state.js';

export async function compactCommand(state: SessionState, arg: string): Promise<void> {
  let keep = DEFAULT_KEEP;
  if (arg.trim() !== '') {
    try {
      keep = parseIntegerInRange(arg, '/compact', 0);
    } catch (error) {
      return say(state, `${neutraliseForTerminal((error as Error).message)} (/compact N keeps the last N turns as they are)`);
    }
  }
  const { io, deps } = state;
  const { context } = deps;
  const stop = new AbortController();
  // Ctrl-C from the keyboard (raw mode: the reader sees it) or as a signal, as while a reply streams.
  const releaseKeys = state.reader.whileBusy(() => stop.abort());
  const release = context.interrupts.push(() => stop.abort());
  const onLeave = (): void => stop.abort();
  context.signal.addEventListener('abort', onLeave, { once: true });
  const active = state.session.activeCompaction;
  let outcome;
  try {
    outcome = await compactSession(io, deps.client, state.session, keep, { request: (messages) => sessionRequest(state, messages), signal: stop.signal, render: state.render, streamUsage: deps.streamUsage });
  } finally {
    releaseKeys();
    release();
    context.signal.removeEventListener('abort', onLeave);
  }
  switch (outcome.kind) {
    case 'nothing':
      return say(state, `(${nothingNote(outcome, keep, active)})`);
    case 'interrupted':
      return say(state, '(compaction interrupted; nothing changed)');
    case 'failed':
      if (outcome.error instanceof EmptySummaryError) return say(state, `(${outcome.error.message})`);
      await reportError(io, outcome.error, context.factory.loadedApiKey());
      return say(state, '(nothing was compacted: /compact tries again)');
    case 'compacted': {
      const { usage, model } = outcome.record;
      // The summary's tokens are this session's too, as a reply's are.
      addUsage(state.usage, usage);
      addUsageOfModel(state.usageByModel, model, usage);
      say(state, `(${compactedNote(outcome, '/rewind undoes it')})`);
      // --usage: the summary's counts, as each reply's are.
      if (deps.plan.usage) say(state, replyUsageLine(usage, deps.prices ?? new Map(), model));
      // A blank line before the next prompt, as after a reply.
      return say(state, '');
    }
  }
}
