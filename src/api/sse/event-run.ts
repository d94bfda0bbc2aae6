/**
 * A run of stream events that are one remembered chunk with other text (sse/repeat-chunks.ts),
 * read from the stream's text in one go. One regular expression checks the whole run, event by
 * event (V8 runs it as native code), and the texts come out by removing what lies between them
 * with one replaceAll: no JavaScript runs per event, which on a long stream is the largest cost
 * left once nothing is parsed (bench/README.md, "A run of the same chunk read in one go").
 *
 * Each event must be written the usual way: `data: `, the chunk on one line, a blank line, LF line
 * ends. The string in it must be valid JSON (no raw control character, only JSON's escapes), so
 * what the run gives is exactly what JSON.parse of each event would.
 */

/** The body of a JSON string: any character but `"`, `\` and controls, or one of JSON's escapes. */
const STRING_BODY = String.raw`(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*`;

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A string body as its text. */
function unescaped(body: string): string {
  return body.indexOf('\\') === -1 ? body : (JSON.parse(`"${body}"`) as string);
}

export class EventRun {
  /** A run of one or more whole events, from exactly where it is tried (sticky). */
  readonly #pattern: RegExp;
  /** What lies between the texts of two events in a row: the end of one and the start of the next. */
  readonly #between: string;
  readonly #head: number;
  readonly #tail: number;

  /** For the chunk whose data is `prefix`, a JSON string, then `suffix`. */
  constructor(
    readonly prefix: string,
    readonly suffix: string,
  ) {
    const head = `data: ${prefix}"`;
    const tail = `"${suffix}\n\n`;
    this.#pattern = new RegExp(`(?:${literally(head)}${STRING_BODY}${literally(tail)})+`, 'y');
    this.#between = tail + head;
    this.#head = head.length;
    this.#tail = tail.length;
  }

  /**
   * The events of the run at `at` in `text`: their texts joined are added to `into`, and the
   * position after the last returned (`at` itself when the event there is not one of them).
   */
  take(text: string, at: number, into: unknown[]): number {
    const pattern = this.#pattern;
    pattern.lastIndex = at;
    try {
      if (!pattern.test(text)) return at;
    } catch {
      // A run of many megabytes in one read can exhaust the expression's stack (no network read
      // is near that): the events are then read the usual way.
      return at;
    }
    const end = pattern.lastIndex;
    const bodies = text.slice(at + this.#head, end - this.#tail);
    // The run's text is its string bodies with what is between them taken out; escapes, when
    // there are any, are undone body by body (an escaped `\"` could otherwise meet its neighbour).
    into.push(bodies.indexOf('\\') === -1 ? bodies.replaceAll(this.#between, '') : bodies.split(this.#between).map(unescaped).join(''));
    return end;
  }
}
