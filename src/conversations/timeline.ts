/**
 * A conversation's turns and the images made in it, in the order they happened, for the views
 * that list both (/history, `svc sessions show`). An image made after a turn later undone comes
 * after the turns still kept: images are files on disk, and /undo does not take them back.
 */
import { onUndo, type Compaction } from './compaction-record.js';
import type { Conversation, ConversationRecord, ImageNote, Turn } from './model.js';

export type TimelineEntry = { kind: 'turn'; turn: Turn } | { kind: 'image'; image: ImageNote };

export function timeline(conversation: { turns: readonly Turn[]; images: Conversation['images'] }): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const images = [...conversation.images];
  const imagesUpTo = (count: number): void => {
    while (images.length > 0 && images[0]!.afterTurn <= count) entries.push({ kind: 'image', image: images.shift()! });
  };
  conversation.turns.forEach((turn, index) => {
    imagesUpTo(index);
    entries.push({ kind: 'turn', turn });
  });
  imagesUpTo(Number.POSITIVE_INFINITY);
  return entries;
}

/** The options as typed again: `--aspect 16:9 --seed 7`. */
export function imageOptionsText(image: ImageNote): string {
  return Object.entries(image.options)
    .map(([name, value]) => `${name === 'output' ? '-o' : `--${name}`} ${/\s/.test(value) ? `"${value}"` : value}`)
    .join(' ');
}

/**
 * A turn of the whole log, and whether an undo (/undo, /retry, /rewind) later dropped it; an image;
 * a compaction, and whether an undo past it later undid it.
 */
export type LogEntry = { kind: 'turn'; turn: Turn; dropped: boolean } | { kind: 'image'; image: ImageNote } | { kind: 'compact'; compaction: Compaction; undone: boolean };

/**
 * Every turn, image and compaction of a conversation's log in the order they happened, the turns
 * an undo record dropped included and marked (`svc sessions show --all`), and the compactions it
 * undid. An undo drops what replay drops: the turn it names, else the last one kept, and with it
 * every compaction that summarised that turn (compaction-record.ts onUndo).
 */
export function logTimeline(records: readonly ConversationRecord[]): LogEntry[] {
  const entries: LogEntry[] = [];
  const kept: Array<{ kind: 'turn'; turn: Turn; dropped: boolean }> = [];
  const inForce: Array<{ kind: 'compact'; compaction: Compaction; undone: boolean }> = [];
  for (const record of records) {
    if (record.type === 'turn') {
      const { type: _type, ...turn } = record;
      const entry = { kind: 'turn' as const, turn, dropped: false };
      entries.push(entry);
      kept.push(entry);
    } else if (record.type === 'image') {
      const { type: _type, ...image } = record;
      entries.push({ kind: 'image', image });
    } else if (record.type === 'compact') {
      const { type: _type, ...compaction } = record;
      const entry = { kind: 'compact' as const, compaction, undone: false };
      entries.push(entry);
      inForce.push(entry);
    } else if (record.type === 'undo') {
      const index = record.turn === undefined ? kept.length - 1 : kept.findLastIndex((entry) => entry.turn.id === record.turn);
      if (index === -1) continue;
      kept.splice(index, 1)[0]!.dropped = true;
      const left = onUndo(inForce.map((entry) => entry.compaction), index).length;
      for (const entry of inForce.splice(left)) entry.undone = true;
    }
  }
  return entries;
}
