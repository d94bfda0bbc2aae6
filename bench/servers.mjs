// Bench-only servers on 127.0.0.1 for loads the emulator does not produce: a stream of many
// small chunks (optionally holding the first one back), and one very large image.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

async function writeAll(res, body, piece) {
  for (let i = 0; i < body.length; i += piece) {
    if (!res.write(body.subarray(i, i + piece))) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** An SSE answer of `chunks` chat chunks of about 170 bytes each, ending with [DONE]. */
export function sseBody(chunks) {
  const parts = [];
  for (let i = 0; i < chunks; i++) {
    const chunk = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [{ index: 0, delta: { content: `w${i % 1000} ` }, finish_reason: null }] };
    parts.push(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  parts.push(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
  return Buffer.from(parts.join(''));
}

/** Streams the same body to every request, in 16 KiB writes. */
export async function startStreamServer(chunks) {
  const body = sseBody(chunks);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void writeAll(res, body, 16 * 1024);
    });
  });
  return { url: await listen(server), bytes: body.length, close: () => server.close() };
}

/**
 * Time to first token: headers at once, then the first content chunk after `holdMs`; `sentAt`
 * records when it left (performance.timeOrigin + now, comparable across processes).
 */
export async function startFirstTokenServer(holdMs) {
  const sent = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': ready\n\n');
      setTimeout(() => {
        const first = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [{ index: 0, delta: { content: 'X' }, finish_reason: null }] };
        res.write(`data: ${JSON.stringify(first)}\n\n`);
        sent.push(performance.timeOrigin + performance.now());
        setTimeout(() => res.end(`data: ${JSON.stringify({ ...first, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`), 50);
      }, holdMs);
    });
  });
  return { url: await listen(server), sent, close: () => server.close() };
}

/** An image answer: one PNG-headed image of `sizeMiB` as base64 JSON, and the image itself. */
export function imageAnswer(sizeMiB) {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452000005400000002f', 'hex');
  const image = Buffer.concat([header, randomBytes(sizeMiB * 1024 * 1024 - header.length)]);
  const body = Buffer.from(JSON.stringify({ created: 1, data: [{ b64_json: image.toString('base64'), revised_prompt: 'bench' }], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }));
  return { body, image };
}

/** One image answer of `sizeMiB`, in 64 KiB writes. */
export async function startImageServer(sizeMiB) {
  const { body } = imageAnswer(sizeMiB);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      void writeAll(res, body, 64 * 1024);
    });
  });
  return { url: await listen(server), bytes: body.length, close: () => server.close() };
}

/**
 * A chat endpoint that answers every request at once with the same small completion (svc batch's
 * bench: the cost measured is the client's, not the service's). Counts the requests it answered.
 */
export async function startChatServer() {
  const body = Buffer.from(JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'A short answer from the bench server.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 } }));
  const state = { answered: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.answered += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': `req_${state.answered}` });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 30_000;
  return { url: await listen(server), state, close: () => server.close() };
}

/** A batch input of `count` chat requests whose bodies are about `bytes` long each. */
export function batchInput(count, bytes) {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27)).slice(0, Math.max(0, bytes - 120));
  const lines = [];
  for (let i = 0; i < count; i++) {
    lines.push(JSON.stringify({ custom_id: `r${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'svc-pro', messages: [{ role: 'user', content: `question ${i}: ${filler}` }] } }));
  }
  return `${lines.join('\n')}\n`;
}
