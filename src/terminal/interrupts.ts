/**
 * Who gets Ctrl-C. By default it stops the whole command; the interactive session pushes its
 * own handler while a reply streams, so Ctrl-C then stops only that reply (llm's users' top
 * complaint is Ctrl-C killing the whole session).
 */
export class InterruptRouter {
  readonly #handlers: Array<() => void> = [];
  readonly #fallback: () => void;

  constructor(fallback: () => void) {
    this.#fallback = fallback;
  }

  /** Handle interrupts until the returned function is called. The newest handler wins. */
  push(handler: () => void): () => void {
    this.#handlers.push(handler);
    return () => {
      const index = this.#handlers.lastIndexOf(handler);
      if (index !== -1) this.#handlers.splice(index, 1);
    };
  }

  dispatch(): void {
    const handler = this.#handlers.at(-1);
    if (handler) handler();
    else this.#fallback();
  }
}
