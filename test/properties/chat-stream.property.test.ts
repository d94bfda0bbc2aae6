/**
 * The stream's shortcut (src/api/sse/repeat-chunks.ts, read by src/api/sse/decode.ts): events that
 * are the last text-only chunk with other text are read straight from the stream's text, without
 * lines, fields or JSON.parse. Whatever streams come and however they are cut into network reads,
 * runChat must give what parsing every event in full gives: the same text, the same completion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runChat } from '../../src/api/chat.js';
import { CompletionAssembler } from '../../src/api/chat-assembler.js';
import type { ApiClient } from '../../src/api/client.js';
import { SseDecoder } from '../../src/api/sse/decode.js';

const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], stream: true };

/** A client whose one answer is `pieces`, read in that order. */
function clientAnswering(pieces: Uint8Array[]): ApiClient {
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const piece of pieces) yield piece;
  }
  const response = { status: 200, headers: new Headers(), requestId: undefined, contentType: 'text/event-stream', url: 'http://service.test/v1/chat/completions', body: body(), discard: () => {} };
  return { baseUrlOrigin: 'http://service.test', post: () => Promise.resolve(response) } as unknown as ApiClient;
}

/** What the stream means with every event parsed in full: no shortcut anywhere. */
function parsedInFull(bytes: Uint8Array): { text: string; completion: unknown } {
  const decoder = new SseDecoder();
  const assembler = new CompletionAssembler(request.model);
  for (const event of [...decoder.push(bytes), ...decoder.end()]) {
    const data = event.data.trim();
    if (data === '[DONE]') break;
    if (data !== '') assembler.add(JSON.parse(data));
  }
  return { text: assembler.text, completion: assembler.completion() };
}

/** Cut `bytes` at the given offsets. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...points, bytes.length].map((point, i, all) => bytes.slice(i === 0 ? 0 : all[i - 1], point));
}

const textChunk = (content: string, id = 'chatcmpl-1') => ({ id, object: 'chat.completion.chunk', created: 7, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });

// Chunks of every kind a stream mixes: many text-only ones (the shortcut's), and others that make
// it learn or forget (a role, another id, an extra field, reasoning, a finish reason).
const anyChunk = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((text) => textChunk(text)) },
  { weight: 1, arbitrary: fc.constant({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 5 }).map((text) => textChunk(text, 'chatcmpl-2')) },
  // Text-only too, but with a field the completion keeps as the latest chunk had it.
  { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom('fp1', 'fp2')).map(([text, fingerprint]) => ({ ...textChunk(text), system_fingerprint: fingerprint })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 5 }).map((text) => ({ ...textChunk(''), choices: [{ index: 0, delta: { reasoning_content: text }, finish_reason: null }] })) },
  // A "content" elsewhere in the chunk, before the delta's.
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom('D1', 'D2')).map(([text, other]) => ({ x: { content: other }, ...textChunk(text) })) },
);
/** `json` cut after its first comma (JSON allows a line end there), the second part on a line of its own. */
const cutAfterComma = (json: string, secondLine: string): string => `data: ${json.slice(0, json.indexOf(',') + 1)}\n${secondLine}${json.slice(json.indexOf(',') + 1)}\n\n`;
// How each event is written: the usual `data: …\n\n`, or with CRLF, no space, a comment before it,
// as two data lines, or broken: its second line without `data:` (an ignored field; the JSON is cut short).
const written = fc.constantFrom(
  (json: string) => `data: ${json}\n\n`,
  (json: string) => `data: ${json}\r\n\r\n`,
  (json: string) => `data:${json}\n\n`,
  (json: string) => `: keep-alive\ndata: ${json}\n\n`,
  (json: string) => cutAfterComma(json, 'data: '),
  (json: string) => cutAfterComma(json, ''),
);

const stream = fc.array(fc.tuple(anyChunk, written), { minLength: 1, maxLength: 40 }).map((events) => {
  const finish = { ...textChunk(''), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
  return new TextEncoder().encode(events.map(([chunk, write]) => write(JSON.stringify(chunk))).join('') + `data: ${JSON.stringify(finish)}\n\ndata: [DONE]\n\n`);
});

describe('chat streams read with the shortcut', () => {
  it('give what parsing every event in full gives, however they are cut (property)', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 20 }), async (bytes, offsets) => {
        const deltas: string[] = [];
        const got = await runChat(clientAnswering(cut(bytes, offsets)), request, { onDelta: (text) => void deltas.push(text) }).then(
          (completion) => ({ completion }),
          () => undefined,
        );
        let expected: ReturnType<typeof parsedInFull> | undefined;
        try {
          expected = parsedInFull(bytes);
        } catch {
          expected = undefined; // an event that is not JSON: runChat must refuse the stream too
        }
        expect(got === undefined).toBe(expected === undefined);
        if (got === undefined || expected === undefined) return;
        expect(deltas.join('')).toBe(expected.text);
        expect(got.completion).toEqual(expected.completion);
      }),
      { numRuns: 500 },
    );
  });

  it('leave a raw line end, a control character or a bad escape inside the text to the full parse, which refuses it', async () => {
    const first = `data: ${JSON.stringify(textChunk('a'))}\n\n`;
    for (const raw of ['\n', '\r', '\t', '\\q', '\\u12']) {
      // The same chunk again, its text holding the character unescaped (or a bad escape): not JSON, whatever cuts it.
      const broken = `data: ${JSON.stringify(textChunk('b')).replace('"b"', `"b${raw}c"`)}\n\n`;
      // In a read of its own: the shortcut reads only what the reads before taught it.
      const pieces = [first, broken + 'data: [DONE]\n\n'].map((text) => new TextEncoder().encode(text));
      await expect(runChat(clientAnswering(pieces), request)).rejects.toThrow(/not valid JSON|stream event/);
    }
  });
});
