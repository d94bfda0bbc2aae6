/**
 * A long note for a person on a terminal (a revised prompt, a hint) wrapped at word boundaries to
 * the terminal's width, each row after the first indented under it, instead of the terminal
 * cutting it mid-word at the edge. Only for a terminal: a pipe or a file gets the line as it is.
 */
import { textWidth } from './width.js';

/** `text` (one line, already neutralised) wrapped to `columns`, later rows indented by `indent`. */
export function wrapNote(text: string, columns: number, indent = 2): string {
  const width = Math.max(20, columns - 1);
  if (textWidth(text) <= width) return text;
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(/ +/)) {
    const lead = rows.length === 0 ? '' : ' '.repeat(indent);
    const next = row === '' ? `${lead}${word}` : `${row} ${word}`;
    if (row !== '' && textWidth(next) > width) {
      rows.push(row);
      row = `${' '.repeat(indent)}${word}`;
    } else row = next;
  }
  if (row !== '') rows.push(row);
  return rows.join('\n');
}

/** The note as it goes to `stream`: wrapped on a terminal (its width), as it is elsewhere. */
export function noteFor(text: string, stream: { isTTY?: boolean; columns?: number }, isTTY: boolean): string {
  if (!isTTY) return text;
  const columns = stream.columns && stream.columns > 0 ? stream.columns : 80;
  return wrapNote(text, columns);
}
