/**
 * The answer after tools ran: when the conversation ends with `tool` messages (the results of the
 * calls the assistant made just before), the reply says what each call returned, quoting the
 * first line of its result, so a user and a test see the round trip: "The get_time tool returned:
 * "14:05". That answers your question about Lisbon."
 */
import type { ChatMessage } from '../../core/chat/messages.js';
import { keywords } from './keywords.js';
import { sentenceList } from './templates.js';

/** How much of a result's first line is quoted before it is cut with "…". */
const QUOTE_LENGTH = 160;

/** The first line of a result with any text on it, trimmed and cut; undefined for an empty result. */
export function firstLine(content: string): string | undefined {
  const line = content.split(/\r?\n/).map((each) => each.trim()).find((each) => each !== '');
  if (line === undefined) return undefined;
  return line.length > QUOTE_LENGTH ? `${line.slice(0, QUOTE_LENGTH - 1)}…` : line;
}

/**
 * The reply to the results that end the conversation, or undefined when it does not end with a
 * tool's result. Each result is named by the function of its call (the assistant message before
 * the results holds the calls).
 */
export function toolResultsReply(messages: readonly ChatMessage[]): string | undefined {
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.role === 'tool') start -= 1;
  if (start === messages.length) return undefined;
  const calls = messages[start - 1]?.toolCalls ?? [];
  const results = messages.slice(start);
  const lines = results.map((result) => {
    const name = calls.find((call) => call.id === result.toolCallId)?.name;
    const tool = name === undefined ? 'The tool' : `The ${name} tool`;
    const line = firstLine(result.content);
    return line === undefined ? `${tool} returned nothing.` : `${tool} returned: "${line}".`;
  });
  const asked = [...messages.slice(0, start)].reverse().find((message) => message.role === 'user')?.content ?? '';
  // What the question was about, less the words that only named the tools ("list_directory").
  const named = new Set(calls.flatMap((call) => call.name.toLowerCase().split(/[^a-z0-9]+/)));
  const topics = keywords(asked, 8).filter((word) => !named.has(word.toLowerCase())).slice(0, 2);
  const answers = results.length === 1 ? 'That answers' : 'Those answer';
  const closing = topics.length > 0 ? `${answers} your question about ${sentenceList(topics)}.` : `${answers} your question.`;
  return [...lines, closing].join(' ');
}
