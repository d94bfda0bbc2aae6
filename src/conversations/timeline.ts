/**
 * A conversation's turns and the images made in it, in the order they happened, for the views
 * that list both (/history, `svc sessions show`). An image made after a turn later undone comes
 * after the turns still kept: images are files on disk, and /undo does not take them back.
 */
import type { Conversation, ImageNote, Turn } from './model.js';

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
