/**
 * Base64 decoded piece by piece, for image data too large to hold twice in memory. Checks the
 * alphabet strictly (Buffer.from(…, 'base64') silently skips what it does not know, which would
 * turn a damaged answer into a damaged file). Whitespace is ignored; padding may end the text.
 */
import { MalformedResponseError } from '../../errors.js';

const VALID = /^[A-Za-z0-9+/]*$/;
const WHITESPACE = /[\s]/g;

export class Base64Decoder {
  /** 0 to 3 characters left over from the last piece (base64 decodes in groups of 4). */
  #carry = '';
  #padding = 0;

  /** Decode the next piece of text. */
  push(text: string): Buffer {
    let clean = text.includes(' ') || text.includes('\n') || text.includes('\r') || text.includes('\t') ? text.replace(WHITESPACE, '') : text;
    if (clean === '') return Buffer.alloc(0);
    if (this.#padding > 0) {
      if (!/^=*$/.test(clean) || this.#padding + clean.length > 2) throw this.#invalid();
      this.#padding += clean.length;
      return Buffer.alloc(0);
    }
    const pad = clean.indexOf('=');
    if (pad !== -1) {
      const tail = clean.slice(pad);
      if (!/^={1,2}$/.test(tail)) throw this.#invalid();
      this.#padding = tail.length;
      clean = clean.slice(0, pad);
    }
    if (!VALID.test(clean)) throw this.#invalid();
    const text4 = this.#carry + clean;
    const whole = text4.length - (text4.length % 4);
    this.#carry = text4.slice(whole);
    return whole === 0 ? Buffer.alloc(0) : Buffer.from(text4.slice(0, whole), 'base64');
  }

  /** End of the text: what is left must form a valid last group. */
  end(): Buffer {
    const rest = this.#carry;
    this.#carry = '';
    if (rest.length === 1) throw this.#invalid();
    if (this.#padding > 0 && (rest.length + this.#padding) % 4 !== 0) throw this.#invalid();
    return rest === '' ? Buffer.alloc(0) : Buffer.from(rest, 'base64');
  }

  #invalid(): MalformedResponseError {
    return new MalformedResponseError('the service sent image data that is not valid base64; nothing was written');
  }
}
