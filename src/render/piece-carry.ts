/**
 * Pieces of text cut anywhere, handed on so that no pair is split: a CR at the end of a piece may
 * be the first half of a CRLF, and a high surrogate the first half of a character outside the
 * Basic Multilingual Plane (an emoji), so either waits for the next piece.
 */
export class PieceCarry {
  #carry = '';

  /** `text` after what was held, less a last character that may be the first of a pair. */
  take(text: string): string {
    const piece = this.#carry + text;
    const last = piece.charCodeAt(piece.length - 1);
    const holdLast = last === 0x0d || (last >= 0xd800 && last <= 0xdbff);
    this.#carry = holdLast ? piece.slice(-1) : '';
    return holdLast ? piece.slice(0, -1) : piece;
  }

  /** What is still held, at the end of the text. */
  rest(): string {
    const rest = this.#carry;
    this.#carry = '';
    return rest;
  }
}
