/**
 * Compacting a conversation: the model summarises all but its last few turns in one request,
 * streamed as a reply is (reply.ts), and the summary is kept as a compact record
 * (conversations/compaction.ts): from then on it stands for those turns in what is sent. One
 * function for every way in: `/compact [N]` in the session, `svc chat --continue --compact`, and
 * a compaction made before a send that would not fit.
 */
import type { ChatRequest, RequestMessage, Usage } from '../../api/chat-types.js';
import type { ApiClient } from '../../api/client.js';
import type { CompactRecord, Compaction } from '../../conversations/compaction-record.js';
import { compactRecord, coveredTurns, planCompaction, summaryRequest } from '../../conversations/compaction.js';
import type { ConversationSession } from '../../conversations/session.js';
import type { IO } from '../../terminal/io.js';
import { replyText, streamReply, type StreamUsageAsk } from './reply.js';

export interface CompactOptions {
  /** The request for `messages` with the chat's model, fields and params (its tools and max_tokens are left out). */
  request(messages: RequestMessage[]): ChatRequest;
  /** Abort to stop the summary (Ctrl-C): nothing is kept then. */
  signal: AbortSignal;
  /** Render the summary as Markdown as it streams (a terminal: reply.ts rendersReplies). */
  render?: boolean;
  /** Show nothing while it streams. */
  quiet?: boolean;
  streamUsage?: StreamUsageAsk | undefined;
}

/** What became of a compaction. */
export type CompactOutcome =
  /** Nothing new to summarise: no more than `keep` turns since the last summary (or at all). */
  | { kind: 'nothing'; turns: number }
  /** Kept: `record` is in the log, `summarised` turns (and `previous`, the summary before) went into it. */
  | { kind: 'compacted'; record: CompactRecord; summarised: number; previous: Compaction | undefined; cut: boolean }
  /** Stopped by the user (Ctrl-C, the reader of stdout leaving): nothing kept. */
  | { kind: 'interrupted' }
  /** The service failed, or wrote no summary: nothing kept. */
  | { kind: 'failed'; error: unknown };

/** The model wrote nothing: not a failure of the service, but nothing to keep either. */
export class EmptySummaryError extends Error {
  constructor() {
    super('the model wrote no summary; nothing was compacted');
  }
}

/**
 * Compact `session`, keeping its last `keep` turns as they are: the summary request (with the
 * summary in force, if any, and the turns since) is sent with `options.request`, the summary
 * streamed to `io.stdout`, and on success kept in the session's log with its tokens.
 */
export async function compactSession(io: IO, client: ApiClient, session: ConversationSession, keep: number, options: CompactOptions): Promise<CompactOutcome> {
  const plan = planCompaction(session.turns, keep, session.activeCompaction);
  if (!plan) return { kind: 'nothing', turns: session.turns.length };
  const request = options.request(summaryRequest(plan));
  // No tools, and no --max-tokens: that limit is for replies, and a summary cut short loses what it was for.
  delete request.tools;
  delete request.max_tokens;
  const outcome = await streamReply(io, client, request, {
    signal: options.signal,
    ...(options.quiet === undefined ? {} : { quiet: options.quiet }),
    ...(options.render === undefined ? {} : { render: options.render }),
    ...(options.streamUsage ? { streamUsage: options.streamUsage } : {}),
  });
  if (options.signal.aborted || outcome.stdoutClosed) return { kind: 'interrupted' };
  if (outcome.error !== undefined) return { kind: 'failed', error: outcome.error };
  const summary = replyText(outcome.completion).trim();
  if (summary === '') return { kind: 'failed', error: new EmptySummaryError() };
  const counts = outcome.completion?.usage;
  const usage: Usage | undefined = counts && { prompt_tokens: counts.prompt_tokens, completion_tokens: counts.completion_tokens, total_tokens: counts.total_tokens };
  const record = compactRecord(plan, summary, { at: new Date().toISOString(), model: request.model, usage });
  session.addCompaction(record);
  return { kind: 'compacted', record, summarised: plan.summarise.length, previous: plan.previous, cut: outcome.completion?.choices[0]?.finish_reason === 'length' };
}

/** What a compaction did, in one line for stderr. */
export function compactedNote(outcome: Extract<CompactOutcome, { kind: 'compacted' }>, undo: string): string {
  const { record, summarised, previous } = outcome;
  const what = `${summarised} turn${summarised === 1 ? '' : 's'}${previous ? ' and the summary before' : ''}`;
  const size = record.usage ? ` (${record.usage.completion_tokens} token${record.usage.completion_tokens === 1 ? '' : 's'})` : '';
  const kept = record.kept === 0 ? 'no turn is sent as it was' : record.kept === 1 ? 'the last turn is sent as it is' : `the last ${record.kept} turns are sent as they are`;
  const cut = outcome.cut ? '; the summary was cut at the token limit' : '';
  return `compacted ${what} into a summary${size}; ${kept}${cut}; ${undo}`;
}

/**
 * How many turns a /rewind right after the compaction drops to undo it: the turns it kept, and
 * the last one it summarised (undoing a kept turn leaves it in force).
 */
export function rewindPast(compaction: Pick<Compaction, 'kept'>): number {
  return compaction.kept + 1;
}

/** What a note says when nothing was compacted. */
export function nothingNote(outcome: Extract<CompactOutcome, { kind: 'nothing' }>, keep: number, active: Compaction | undefined): string {
  if (active) return `nothing to compact: no more than ${keep} turn${keep === 1 ? '' : 's'} since the last summary (of ${coveredTurns(active)})`;
  return `nothing to compact: the conversation has ${outcome.turns} turn${outcome.turns === 1 ? '' : 's'}, and the last ${keep} ${keep === 1 ? 'is' : 'are'} kept as ${keep === 1 ? 'it is' : 'they are'}`;
}

/** Said when an undo took a compaction back (`before` was in force, `after` is). */
export function compactionUndoneNote(before: Compaction | undefined, after: Compaction | undefined): string | undefined {
  if (!before || before === after) return undefined;
  return `the compaction of ${coveredTurns(before)} is undone${after ? ` (the one of ${coveredTurns(after)} is in force again)` : ': every turn is sent again'}`;
}
