/**
 * Conversation names: they are file names (`<name>.jsonl`), so only letters, digits, dot, dash
 * and underscore, no path, no hidden file; and a fresh one for an unnamed conversation.
 */
import { UsageError } from '../core/errors.js';

export const EXTENSION = '.jsonl';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isConversationName(name: string): boolean {
  return NAME.test(name) && !name.endsWith(EXTENSION);
}

/** Names are file names: letters, digits, dot, dash, underscore; no path, no hidden files. */
export function checkConversationName(name: string): string {
  if (!isConversationName(name)) {
    throw new UsageError(`"${name}" is not a usable conversation name`, { hint: 'use letters, digits, ".", "-" and "_" (at most 64)' });
  }
  return name;
}

/** A fresh name for an unnamed conversation: sortable by time, unique enough to never collide. */
export function newConversationName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}
