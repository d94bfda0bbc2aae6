/**
 * Base64 decoded piece by piece, for image data too large to hold twice in memory. Checks the
 * text (Buffer.from(…, 'base64') silently skips what it does not know, which would turn a
 * damaged answer into a damaged file). Whitespace is ignored; padding may end the text.
 *
 * The check is cheap in the common case: a clean group of 4n characters decodes to exactly 3n
 * bytes, and anything Buffer skipped makes it shorter. Only then is the piece looked at closely.
 * (Buffer also reads the URL-safe alphabet, `-` and `_`; those are accepted as base64url.)
 */
import { MalformedResponseError } from '../../core/errors.js';

const VALID = /^[A-Za-z0-9+/_-]*$/;
const WHITESPACE = /\s/g;

export class Base64Decoder {
  /** 0 to 3 characters left over from the last piece (base64 decodes in groups of 4). */
  #carry = '';
  #padding = 0;

  /** Decode the next piece of text. */
  push(text: string): Buffer {
    if (this.#padding === 0 && !text.includes('=')) {
      const fast = this.#decodeGroups(this.#carry + text);
      if (fast) return fast;
    }
    return this.#pushCarefully(text);
  }

  /** End of the text: what is left must form a valid last group. */
  end(): Buffer {
    const rest = this.#carry;
    this.#carry = '';
    if (rest.length === 1) throw this.#invalid();
    if (this.#padding > 0 && (rest.length + this.#padding) % 4 !== 0) throw this.#invalid();
    if (rest === '') return Buffer.alloc(0);
    const bytes = Buffer.from(rest, 'base64');
    if (bytes.length !== Math.floor((rest.length * 3) / 4)) throw this.#invalid();
    return bytes;
  }

  /** Decode the whole groups of `text`; undefined when a character was not base64. */
  #decodeGroups(text: string): Buffer | undefined {
    const whole = text.length - (text.length % 4);
    const carry = text.slice(whole);
    // The left-over characters are checked now, or a space among them would travel on.
    if (!VALID.test(carry)) return undefined;
    const bytes = whole === 0 ? Buffer.alloc(0) : Buffer.from(text.slice(0, whole), 'base64');
    if (bytes.length !== (whole / 4) * 3) return undefined;
    this.#carry = carry;
    return bytes;
  }

  /** Whitespace, padding, or a suspect character: strip, check, then decode. */
  #pushCarefully(text: string): Buffer {
    let clean = text.replace(WHITESPACE, '');
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
    const bytes = this.#decodeGroups(this.#carry + clean);
    if (!bytes) throw this.#invalid();
    return bytes;
  }

  #invalid(): MalformedResponseError {
    return new MalformedResponseError('the service sent image data that is not valid base64; nothing was written');
  }
}
