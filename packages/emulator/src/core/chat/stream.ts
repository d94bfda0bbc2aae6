/**
 * Server-sent events for the streaming chat response: `data: <json>\n\n` per chunk, then
 * `data: [DONE]\n\n` (the OpenAI convention; framing per the WHATWG HTML "Server-sent events"
 * section).
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Writes `events` as an SSE stream, waiting `delayMs` before every event after the first so the
 * tokens arrive one by one. When `signal` aborts (the client hung up, or the emulator is closing)
 * it stops at once: the pending timer is cancelled and nothing more is written.
 */
export async function streamEvents(res: ServerResponse, events: readonly object[], delayMs: number, signal: AbortSignal, cutAfter?: number): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  // Send the headers now: with a delay the client should see the stream open before the first token.
  res.flushHeaders();
  const payloads = [...events.map((event) => JSON.stringify(event)), '[DONE]'];
  try {
    for (const [index, data] of payloads.entries()) {
      // `--cut-after N`: the connection is closed after N chunks, with no [DONE] (a dropped stream).
      if (cutAfter !== undefined && index >= cutAfter) {
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        res.destroy();
        return;
      }
      if (index > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal });
      if (signal.aborted) break;
      // Respect backpressure: a slow reader must not make the emulator buffer the whole reply.
      if (!res.write(`data: ${data}\n\n`)) await once(res, 'drain', { signal });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  // After an abort the stream is ended without [DONE], which a client rightly reads as a cut stream.
  if (!res.destroyed && !res.writableEnded) res.end();
}
