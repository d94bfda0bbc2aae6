/**
 * Reading an image answer without holding the image in memory: the JSON is scanned as it
 * arrives, every `"b64_json": "…"` value is base64-decoded piece by piece into a sink (a file),
 * and the rest of the document (small) is kept with a placeholder in place of each image, to be
 * parsed with JSON.parse at the end.
 *
 * Why not a streaming JSON library: stream-json, the well-kept one, is as lean but takes over
 * three times as long on a 24 MiB image answer, and longer than JSON.parse + Buffer.from
 * (bench/, "Reading a 24 MiB image answer"), while this scanner finds the string's end with
 * Buffer.indexOf and decodes with Buffer's native base64.
 */
import { MalformedResponseError } from '../../core/errors.js';
import { MAX_IMAGE_ANSWER_TEXT_BYTES } from '../limits.js';
import { describeBytes } from '../../core/byte-size.js';
import { parseServiceJson } from '../service-message.js';
import { Base64Decoder } from './base64-decoder.js';

/** Where the bytes of one image go. */
export interface BlobSink {
  write(bytes: Buffer): void;
  end(): void;
}

/** The string that stands in the skeleton for image `index`. */
export function placeholder(index: number): string {
  return `\u0000svc-image:${index}`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const BLOB_KEY = 'b64_json';
/** Strings longer than this are never keys we care about, so they are not remembered. */
const KEY_MEMORY = 32;

const SIMPLE_ESCAPES: Record<string, string> = { '/': '/', '\\': '\\', '"': '"', n: '\n', r: '\r', t: '\t', b: '', f: '' };

type State = 'json' | 'string' | 'string-escape' | 'blob' | 'blob-escape';

export class BlobScanner {
  readonly #skeleton: Buffer[] = [];
  #skeletonBytes = 0;
  readonly #openSink: (index: number) => BlobSink;
  #state: State = 'json';
  /** Bytes of the string being read (outside blobs), kept only while short. */
  #stringBytes: number[] = [];
  #lastString: string | undefined;
  #keyPending: string | undefined;
  #blobs = 0;
  #sink: BlobSink | undefined;
  #decoder: Base64Decoder | undefined;
  #unicode = '';
  /**
   * Base64 text of the current image read from this chunk, decoded and written in one go when
   * the chunk is done: escapes (`\/`, `\n`) would otherwise cut it into pieces of a few dozen
   * characters, each with its own decode and write (35 times slower on an 18 MiB image).
   */
  readonly #blobText: string[] = [];

  constructor(openSink: (index: number) => BlobSink) {
    this.#openSink = openSink;
  }

  push(chunk: Buffer): void {
    let copyFrom = 0;
    let i = 0;
    while (i < chunk.length) {
      switch (this.#state) {
        case 'json': {
          const byte = chunk[i]!;
          if (byte === QUOTE) {
            if (this.#keyPending === BLOB_KEY) {
              // The value of "b64_json": from here the bytes go to the sink, not the skeleton.
              this.#keep(chunk.subarray(copyFrom, i));
              this.#keep(Buffer.from(JSON.stringify(placeholder(this.#blobs))));
              this.#sink = this.#openSink(this.#blobs);
              this.#decoder = new Base64Decoder();
              this.#blobs += 1;
              this.#keyPending = undefined;
              this.#state = 'blob';
              i += 1;
              copyFrom = i;
              continue;
            }
            this.#state = 'string';
            this.#stringBytes = [];
          } else if (byte === COLON) {
            this.#keyPending = this.#lastString;
          } else if (byte > 0x20) {
            this.#keyPending = undefined;
            this.#lastString = undefined;
          }
          i += 1;
          break;
        }
        case 'string': {
          const byte = chunk[i]!;
          if (byte === QUOTE) {
            this.#lastString = this.#stringBytes.length <= KEY_MEMORY ? Buffer.from(this.#stringBytes).toString('utf8') : undefined;
            this.#state = 'json';
          } else if (byte === BACKSLASH) {
            this.#state = 'string-escape';
          } else if (this.#stringBytes.length <= KEY_MEMORY) {
            this.#stringBytes.push(byte);
          }
          i += 1;
          break;
        }
        case 'string-escape':
          this.#stringBytes.push(0x3f); // an escaped character: not part of any key we look for
          this.#state = 'string';
          i += 1;
          break;
        case 'blob': {
          const quote = chunk.indexOf(QUOTE, i);
          const slash = chunk.indexOf(BACKSLASH, i);
          const stop = quote === -1 ? slash : slash === -1 ? quote : Math.min(quote, slash);
          const end = stop === -1 ? chunk.length : stop;
          if (end > i) this.#blobText.push(chunk.toString('latin1', i, end));
          if (stop === -1) {
            i = chunk.length;
          } else if (chunk[stop] === QUOTE) {
            this.#finishBlob();
            i = stop + 1;
            copyFrom = i;
            this.#state = 'json';
          } else {
            this.#state = 'blob-escape';
            i = stop + 1;
          }
          break;
        }
        case 'blob-escape':
          i = this.#blobEscape(chunk, i);
          break;
      }
    }
    if (this.#state !== 'blob' && this.#state !== 'blob-escape') this.#keep(chunk.subarray(copyFrom));
    else this.#writeBlobText();
  }

  /** The document with placeholders; throws when the answer ended inside an image. */
  end(): unknown {
    if (this.#state === 'blob' || this.#state === 'blob-escape') {
      throw new MalformedResponseError('the answer ended in the middle of the image data');
    }
    return parseServiceJson(Buffer.concat(this.#skeleton).toString('utf8'), 'an answer');
  }

  /** Keep part of the document; all but the images is bounded (limits.ts). */
  #keep(part: Buffer): void {
    this.#skeletonBytes += part.length;
    if (this.#skeletonBytes > MAX_IMAGE_ANSWER_TEXT_BYTES) {
      throw new MalformedResponseError(`the image answer carries more than ${describeBytes(MAX_IMAGE_ANSWER_TEXT_BYTES)} besides its images, far beyond any real one; stopped reading`);
    }
    this.#skeleton.push(part);
  }

  #writeBlobText(): void {
    if (this.#blobText.length === 0) return;
    this.#sink!.write(this.#decoder!.push(this.#blobText.join('')));
    this.#blobText.length = 0;
  }

  #finishBlob(): void {
    this.#writeBlobText();
    this.#sink!.write(this.#decoder!.end());
    this.#sink!.end();
    this.#sink = undefined;
    this.#decoder = undefined;
  }

  /** A JSON escape inside the base64 text: `\/` is common (PHP), `\n` appears in wrapped base64. */
  #blobEscape(chunk: Buffer, i: number): number {
    const char = String.fromCharCode(chunk[i]!);
    if (this.#unicode !== '' || char === 'u') {
      this.#unicode += char;
      if (this.#unicode.length < 5) return i + 1;
      const code = Number.parseInt(this.#unicode.slice(1), 16);
      this.#unicode = '';
      this.#blobText.push(Number.isNaN(code) ? '!' : String.fromCharCode(code));
    } else {
      this.#blobText.push(SIMPLE_ESCAPES[char] ?? '!');
    }
    this.#state = 'blob';
    return i + 1;
  }
}
