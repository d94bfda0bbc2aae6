import { describe, expect, it } from 'vitest';
import { SseDecoder } from '../../src/api/sse/decode.js';
import type { SseEvent } from '../../src/api/sse/event-parser.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodeChunks(chunks: Uint8Array[]): SseEvent[] {
  const decoder = new SseDecoder();
  const events = chunks.flatMap((chunk) => decoder.push(chunk));
  return [...events, ...decoder.end()];
}

/** Every way of cutting `input` in two, plus every single byte on its own. */
function splits(input: Uint8Array): Uint8Array[][] {
  const result: Uint8Array[][] = [];
  for (let cut = 0; cut <= input.length; cut++) result.push([input.slice(0, cut), input.slice(cut)]);
  result.push(Array.from(input, (byte) => Uint8Array.of(byte)));
  return result;
}

const message = (data: string, event = 'message'): SseEvent => ({ event, data });

// WHATWG server-sent events parsing rules, one row per rule.
const cases: Array<{ name: string; input: Uint8Array; events: SseEvent[] }> = [
  { name: 'LF line ends', input: bytes('data: a\n\ndata: b\n\n'), events: [message('a'), message('b')] },
  { name: 'CRLF line ends', input: bytes('data: a\r\n\r\ndata: b\r\n\r\n'), events: [message('a'), message('b')] },
  { name: 'lone CR line ends', input: bytes('data: a\r\rdata: b\r\r'), events: [message('a'), message('b')] },
  { name: 'mixed line ends', input: bytes('data: a\r\n\rdata: b\n\r\n'), events: [message('a'), message('b')] },
  { name: 'one leading BOM is dropped', input: bytes('\uFEFFdata: a\n\n'), events: [message('a')] },
  { name: 'a second BOM is kept (it is not a data field)', input: bytes('\uFEFF\uFEFFdata: a\n\ndata: b\n\n'), events: [message('b')] },
  { name: 'comments are ignored', input: bytes(': keep-alive\ndata: a\n: more\n\n'), events: [message('a')] },
  { name: 'data without a space', input: bytes('data:a\n\n'), events: [message('a')] },
  { name: 'only one leading space is removed', input: bytes('data:  a \n\n'), events: [message(' a ')] },
  { name: 'several data lines are joined with LF', input: bytes('data: a\ndata: b\ndata:\n\n'), events: [message('a\nb\n')] },
  { name: 'event names', input: bytes('event: error\ndata: x\n\ndata: y\n\n'), events: [message('x', 'error'), message('y')] },
  { name: 'id, retry and unknown fields are ignored', input: bytes('id: 7\nretry: 10\nfoo: bar\ndata: a\n\n'), events: [message('a')] },
  { name: 'a line without a colon is a field with an empty value', input: bytes('data\n\n'), events: [message('')] },
  { name: 'a field name without a colon that is unknown is ignored', input: bytes('foo\ndata: a\n\n'), events: [message('a')] },
  { name: 'an event without data is not dispatched', input: bytes('event: ping\n\ndata: a\n\n'), events: [message('a')] },
  { name: 'multi-byte UTF-8', input: bytes('data: héllo wörld ✓ 🎉\n\n'), events: [message('héllo wörld ✓ 🎉')] },
  { name: 'pending event at end of stream is dispatched', input: bytes('data: a\n\ndata: last\n'), events: [message('a'), message('last')] },
  { name: 'pending event without any line end', input: bytes('data: a\n\ndata: last'), events: [message('a'), message('last')] },
  { name: 'CR-only stream whose last event lacks its blank line', input: bytes('data: a\r\rdata: b\r'), events: [message('a'), message('b')] },
  { name: 'colon inside the value is kept', input: bytes('data: {"a":"b:c"}\n\n'), events: [message('{"a":"b:c"}')] },
  // Not WHATWG: llama.cpp's server sends a failure as an `error:` field line.
  { name: "an `error:` line is an error event (llama.cpp)", input: bytes('data: a\n\nerror: {"code":500}\n\ndata: [DONE]\n\n'), events: [message('a'), message('{"code":500}', 'error'), message('[DONE]')] },
  { name: 'an `error:` line wins over data in the same event', input: bytes('error: boom\ndata: [DONE]\n\n'), events: [message('boom', 'error')] },
  { name: 'empty stream', input: bytes(''), events: [] },
];

describe('SSE decoding (WHATWG rules)', () => {
  for (const row of cases) {
    it(`${row.name}: whole input`, () => {
      expect(decodeChunks([row.input])).toEqual(row.events);
    });
    it(`${row.name}: split at every byte boundary and byte by byte`, () => {
      for (const chunks of splits(row.input)) expect(decodeChunks(chunks)).toEqual(row.events);
    });
  }

  it('a CR at the end of one chunk and its LF at the start of the next make one line end', () => {
    expect(decodeChunks([bytes('data: a\r'), bytes('\ndata: b\r'), bytes('\n\r\n')])).toEqual([message('a\nb')]);
  });

  it('a UTF-8 character split across chunks is put back together', () => {
    const input = bytes('data: 🎉\n\n');
    const emojiStart = 6;
    for (let cut = emojiStart + 1; cut < emojiStart + 4; cut++) {
      expect(decodeChunks([input.slice(0, cut), input.slice(cut)])).toEqual([message('🎉')]);
    }
  });

  it('a BOM split across chunks is still dropped', () => {
    const input = bytes('\uFEFFdata: a\n\n');
    expect(decodeChunks([input.slice(0, 1), input.slice(1, 2), input.slice(2)])).toEqual([message('a')]);
  });

  it('a BOM after empty chunks is still the first character; after a line it is not', () => {
    expect(decodeChunks([new Uint8Array(0), bytes('\uFEFFdata: a\n\n')])).toEqual([message('a')]);
    expect(decodeChunks([bytes('\n\uFEFFdata: a\n\ndata: b\n\n')])).toEqual([message('b')]);
  });

  it('reads an OpenAI-style stream', () => {
    const chunk = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });
    const stream = `data: ${chunk('Hel')}\n\ndata: ${chunk('lo')}\n\ndata: [DONE]\n\n`;
    expect(decodeChunks([bytes(stream)]).map((event) => event.data)).toEqual([chunk('Hel'), chunk('lo'), '[DONE]']);
  });
});
