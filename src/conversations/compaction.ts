/**
 * Compaction: a conversation grown past its model's window goes on as a summary of its earlier
 * turns plus its last few. The model writes the summary in one request (summaryRequest); from
 * then on the conversation sends one system message (its own system prompt, then the summary)
 * and the turns after the summarised ones (compactedMessages).
 *
 * Nothing is cut from the log: the compaction is a record of its own (`type: "compact"`,
 * compaction-record.ts), after every turn it covers, which stay as they were, so `sessions show
 * --all` still shows them and where the compaction came. Replaying it (onCompactRecord,
 * onUndo) keeps a stack: a later compaction covers the summary before it, and undoing a turn a
 * compaction summarised (a /rewind past it) drops that compaction, uncovering the one before.
 */
import type { ChatMessage, RequestMessage, Usage } from '../api/chat-types.js';
import type { Compaction, CompactRecord } from './compaction-record.js';
import { toMessages, type ImageUrlOf, type Turn } from './model.js';

/** Turns sent as they are after `/compact` (`/compact N` to choose). */
export const DEFAULT_KEEP = 2;

/** What one `/compact` summarises and keeps. */
export interface CompactionPlan {
  /** The summary in force, which the new one takes in (the turns before it are not sent again). */
  previous: Compaction | undefined;
  /** The turns to summarise: after the previous summary, before the kept ones. */
  summarise: Turn[];
  /** The turns left as they are. */
  kept: Turn[];
  /** How many turns the new summary covers, from the first. */
  through: number;
}

/**
 * What `/compact [keep]` would do to `turns`, given the compaction in force (`active`); undefined
 * when there is nothing new to summarise (no more than `keep` turns since the last summary).
 */
export function planCompaction(turns: readonly Turn[], keep = DEFAULT_KEEP, active?: Compaction): CompactionPlan | undefined {
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a whole number of turns, not ${keep}`);
  const from = active?.through ?? 0;
  const through = Math.max(from, turns.length - keep);
  if (through <= from) return undefined;
  return { previous: active, summarise: turns.slice(from, through), kept: turns.slice(through), through };
}

/**
 * The instruction of the summary request. The summary replaces the turns for the model from then
 * on, so it must carry what a reply may need: facts, decisions, names, numbers, code, and what
 * is still open; in the conversation's own language, with nothing about itself.
 */
export const SUMMARY_INSTRUCTION = [
  'You summarise a conversation between a user and an assistant so that it can go on without its earlier messages.',
  'Write a summary that keeps everything a later reply may need: the facts given, decisions made, names, numbers, file names and code that matter, and the questions still open.',
  'Write it in the language of the conversation, as plain prose or short lists, in the third person ("The user asked…").',
  'Answer with the summary alone: no greeting, no preamble, no comment on the task.',
].join(' ');

/**
 * One turn as the transcript shows it. An interrupted reply goes as far as it came, marked; an
 * empty one is left out, as toMessages leaves it.
 */
function transcriptOf(turn: Turn): string {
  // The images are named, not sent again: the summary can still say what was shown.
  const images = (turn.images ?? []).map((image) => `\n[image ${image.name}]`).join('');
  const user = `User:\n${turn.user}${images}`;
  if (turn.assistant === '') return user;
  return `${user}\n\nAssistant${turn.interrupted ? ' (cut short)' : ''}:\n${turn.assistant}`;
}

/**
 * The summary request: the instruction, then the conversation to summarise as one user message
 * (a transcript, so the model summarises it rather than answering its last question), the
 * summary in force first when there is one.
 */
export function summaryRequest(plan: CompactionPlan): ChatMessage[] {
  const parts: string[] = [];
  if (plan.previous) parts.push(`Summary of the conversation before these turns:\n${plan.previous.summary}`);
  parts.push(...plan.summarise.map(transcriptOf));
  return [
    { role: 'system', content: SUMMARY_INSTRUCTION },
    { role: 'user', content: `Summarise this conversation:\n\n${parts.join('\n\n')}` },
  ];
}

/** The record to append once the model has written `summary`. */
export function compactRecord(plan: CompactionPlan, summary: string, meta: { at: string; model?: string | undefined; usage?: Usage | undefined }): CompactRecord {
  return {
    type: 'compact',
    summary,
    through: plan.through,
    kept: plan.kept.length,
    at: meta.at,
    ...(meta.model === undefined ? {} : { model: meta.model }),
    ...(meta.usage === undefined ? {} : { usage: meta.usage }),
  };
}

/** "turns 1–6" (or "turn 1"): the turns a compaction covers, as svc names them to people. */
export function coveredTurns(compaction: Pick<Compaction, 'through'>): string {
  return compaction.through === 1 ? 'turn 1' : `turns 1–${compaction.through}`;
}

/** "its place" for one turn, "their place" for several: the words after coveredTurns. */
export function inTheirPlace(compaction: Pick<Compaction, 'through'>): string {
  return compaction.through === 1 ? 'sent in its place' : 'sent in their place';
}

/**
 * The system note that stands for the summarised turns. It is joined to the conversation's own
 * system prompt into one system message: many chat templates (llama.cpp's among them) refuse a
 * second system message, or one that is not first.
 */
export function summaryNote(compaction: Compaction): string {
  const turns = compaction.through === 1 ? 'turn' : 'turns';
  return `Summary of the earlier conversation (its first ${compaction.through} ${turns}, summarised to save room):\n${compaction.summary}`;
}

/**
 * The messages a compacted conversation sends: one system message (the system prompt, then the
 * summary), then the turns after the summarised ones, as toMessages makes them. Without a
 * compaction, toMessages itself.
 */
export function compactedMessages(conversation: { system: string | undefined; turns: readonly Turn[] }, active: Compaction | undefined, urlOf?: ImageUrlOf): RequestMessage[] {
  if (!active) return toMessages({ system: conversation.system, turns: [...conversation.turns] }, urlOf);
  const note = summaryNote(active);
  const system = conversation.system ? `${conversation.system}\n\n${note}` : note;
  return [{ role: 'system', content: system }, ...toMessages({ system: undefined, turns: conversation.turns.slice(active.through) }, urlOf)];
}
