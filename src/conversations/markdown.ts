/**
 * A conversation as a Markdown document, for `svc sessions export`: a title, then a heading per
 * message that says who spoke, and for a reply the model and the time (UTC). The messages
 * themselves are Markdown already (that is how models write) and go in as they are.
 */
import type { Conversation } from './model.js';

/** "2025-01-02T10:11:12.345Z" → "2025-01-02 10:11 UTC"; anything else as it is. */
function when(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : iso;
}

/** A message body, ending with exactly one newline; an empty one says so rather than vanish. */
function body(text: string): string {
  return text.trim() === '' ? '*(nothing)*\n' : `${text.replace(/\s+$/, '')}\n`;
}

export function toMarkdown(conversation: Conversation): string {
  const count = conversation.turns.length;
  const parts = [`# ${conversation.name}\n`, `${count} ${count === 1 ? 'turn' : 'turns'}, started ${when(conversation.created)}, last changed ${when(conversation.updated || conversation.created)}.\n`];
  if (conversation.system) parts.push(`## System\n`, body(conversation.system));
  conversation.turns.forEach((turn, index) => {
    parts.push(`## User (turn ${index + 1})\n`, body(turn.user));
    const about = [turn.model, when(turn.at), turn.interrupted ? 'interrupted' : undefined].filter(Boolean).join(', ');
    parts.push(`## Assistant (${about})\n`, body(turn.assistant));
  });
  return parts.join('\n');
}
