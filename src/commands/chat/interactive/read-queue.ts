/** What one read gives: a line, the end of input (Ctrl-D), or Ctrl-C (with or without text typed). */
export type ReadResult = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt'; hadText: boolean };

/**
 * What a session's line reader has read and nobody has asked for yet (lines typed ahead, Ctrl-C,
 * the end of input), handed out in order: what came first goes first, and once the input has
 * ended every read is the end. Shared by the readers of both modes (line-reader.ts,
 * plain-reader.ts), so they agree on that order.
 */
export class ReadQueue {
  readonly #queue: ReadResult[] = [];
  #waiting: ((result: ReadResult) => void) | undefined;
  #closed = false;

  /** The input has ended (Ctrl-D, the reader closed). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Mark the input ended; true the first time only, so what ends it is done once. */
  close(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    return true;
  }

  /** True while a read waits for input (a prompt is shown). */
  get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  /** A result came: to the read waiting for one, else kept for the next read. */
  deliver(result: ReadResult): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting(result);
    else this.#queue.push(result);
  }

  /** What was read ahead, or the end once closed; undefined when the next result is still to come. */
  ready(): ReadResult | undefined {
    return this.#queue.shift() ?? (this.closed ? { kind: 'eof' } : undefined);
  }

  /** Wait for the next result (after ready() gave none); `done` runs before it is handed on. */
  next(done: () => void = () => {}): Promise<ReadResult> {
    return new Promise((resolve) => {
      this.#waiting = (result) => {
        done();
        resolve(result);
      };
    });
  }
}
