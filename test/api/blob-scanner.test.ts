import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Base64Decoder } from '../../src/api/images/base64-decoder.js';
import { BlobScanner, placeholder, type BlobSink } from '../../src/api/images/blob-scanner.js';
import { MalformedResponseError } from '../../src/core/errors.js';

function scan(chunks: Buffer[]): { document: unknown; blobs: Buffer[] } {
  const blobs: Buffer[][] = [];
  const scanner = new BlobScanner((index): BlobSink => {
    blobs[index] = [];
    return { write: (bytes) => blobs[index]!.push(Buffer.from(bytes)), end() {} };
  });
  for (const chunk of chunks) scanner.push(chunk);
  return { document: scanner.end(), blobs: blobs.map((parts) => Buffer.concat(parts)) };
}

function pieces(buffer: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buffer.length; i += size) out.push(buffer.subarray(i, i + size));
  return out;
}

describe('Base64Decoder', () => {
  it.each([1, 2, 3, 4, 5, 7, 1000])('decodes pieces of %i characters to the same bytes as Buffer.from', (size) => {
    const bytes = randomBytes(1001);
    const text = bytes.toString('base64');
    const decoder = new Base64Decoder();
    const parts: Buffer[] = [];
    for (let i = 0; i < text.length; i += size) parts.push(decoder.push(text.slice(i, i + size)));
    parts.push(decoder.end());
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  it('ignores whitespace and accepts unpadded text', () => {
    const decoder = new Base64Decoder();
    const out = Buffer.concat([decoder.push('aGVs\nbG8g'), decoder.push('d29y bGQ'), decoder.end()]);
    expect(out.toString()).toBe('hello world');
  });

  it.each(['ab$c', 'ab=c', 'abc=d===', 'a', 'YQ==YQ=='])('%j is invalid base64', (text) => {
    const decoder = new Base64Decoder();
    expect(() => {
      decoder.push(text);
      decoder.end();
    }).toThrow(MalformedResponseError);
  });
});

describe('BlobScanner', () => {
  const image = randomBytes(50_000);
  const body = Buffer.from(
    JSON.stringify({ created: 7, data: [{ revised_prompt: 'a "quoted" prompt: with colon', b64_json: image.toString('base64') }, { b64_json: 'aGk=', revised_prompt: 'second' }], usage: { prompt_tokens: 3 } }),
  );

  it.each([1, 3, 64, 1000, 65_536])('pieces of %i bytes: images to the sinks, the rest to the document', (size) => {
    const { document, blobs } = scan(pieces(body, size));
    expect(document).toEqual({
      created: 7,
      data: [
        { revised_prompt: 'a "quoted" prompt: with colon', b64_json: placeholder(0) },
        { b64_json: placeholder(1), revised_prompt: 'second' },
      ],
      usage: { prompt_tokens: 3 },
    });
    expect(blobs[0]!.equals(image)).toBe(true);
    expect(blobs[1]!.toString()).toBe('hi');
  });

  it('understands JSON escapes inside the base64 (\\/ and wrapped lines), across piece boundaries', () => {
    const text = Buffer.from('hello, world! this is a test').toString('base64');
    const escaped = text.replace(/\//g, '\\/').replace(/(.{8})/g, '$1\\n').replace(/^(.)/, '\\u00$1'.replace('$1', text.charCodeAt(0).toString(16)));
    const json = Buffer.from(`{"data":[{"b64_json":"${escaped}"}]}`);
    for (const size of [1, 2, 5, 100]) {
      const { blobs } = scan(pieces(json, size));
      expect(blobs[0]!.toString()).toBe('hello, world! this is a test');
    }
  });

  it('a string value "b64_json" is not mistaken for the key', () => {
    const { document, blobs } = scan([Buffer.from('{"note":"b64_json","data":[]}')]);
    expect(document).toEqual({ note: 'b64_json', data: [] });
    expect(blobs).toHaveLength(0);
  });

  it('invalid base64 is a malformed answer', () => {
    expect(() => scan([Buffer.from('{"data":[{"b64_json":"not*base64"}]}')])).toThrow('not valid base64');
  });

  it('an answer cut inside the image is malformed', () => {
    expect(() => scan([Buffer.from('{"data":[{"b64_json":"aGVsbG8')])).toThrow('middle of the image');
  });

  it('a document that is not JSON is malformed', () => {
    expect(() => scan([Buffer.from('<html>oops</html>')])).toThrow(MalformedResponseError);
  });
});
