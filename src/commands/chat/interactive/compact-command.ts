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
import { compactedNote, compactSession, EmptySummaryError, nothingNote, rewindPast, type CompactOutcome } from '../compact.js';
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
  await compactInSession(state, keep);
}

/**
 * Compact the session's conversation keeping its last `keep` turns, as /compact does: the summary
 * streamed (Ctrl-C stops it), what happened said on stderr (a failure reported as a turn's is),
 * the summary's tokens counted in the session's. Also for a compaction before a send.
 */
export async function compactInSession(state: SessionState, keep: number): Promise<CompactOutcome> {
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
      say(state, `(${nothingNote(outcome, keep, active)})`);
      break;
    case 'interrupted':
      say(state, '(compaction interrupted; nothing changed)');
      break;
    case 'failed':
      if (outcome.error instanceof EmptySummaryError) say(state, `(${outcome.error.message})`);
      else {
        await reportError(io, outcome.error, context.factory.loadedApiKey());
        say(state, '(nothing was compacted: /compact tries again)');
      }
      break;
    case 'compacted': {
      const { usage, model } = outcome.record;
      // The summary's tokens are this session's too, as a reply's are.
      addUsage(state.usage, usage);
      addUsageOfModel(state.usageByModel, model, usage);
      say(state, `(${compactedNote(outcome, `/rewind ${rewindPast(outcome.record)} undoes it`)})`);
      // --usage: the summary's counts, as each reply's are.
      if (deps.plan.usage) say(state, replyUsageLine(usage, deps.prices ?? new Map(), model));
      // A blank line before what comes next, as after a reply.
      say(state, '');
    }
  }
  return outcome;
}
