import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChat } from '../../src/api/chat.js';
import type { ChatCompletion, ChatRequest } from '../../src/api/chat-types.js';
import { ApiClient } from '../../src/api/client.js';
import { describeError, exitCodeFor, MalformedResponseError, NetworkError, ReplyCutError, ServerError } from '../../src/core/errors.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let agent: Agent;
const streaming: ChatRequest = { model: 'svc-pro', messages: [{ role: 'user', content: 'hi' }], stream: true };

beforeAll(() => {
  agent = new Agent();
});
afterAll(async () => {
  await agent.close();
});

async function chatWith(handler: Handler, request: ChatRequest = streaming) {
  scripted.server.script(handler);
  const client = new ApiClient({ baseUrl: scripted.server.baseUrl, apiKey: 'k', userAgent: 'svc/test', timeoutMs: 2000, maxRetries: 0, dispatcher: agent });
  const deltas: string[] = [];
  try {
    const completion = await runChat(client, request, { onDelta: (text) => void deltas.push(text) });
    return { completion, deltas, error: undefined, cut: undefined };
  } catch (error) {
    // A failure once the service answered comes as a ReplyCutError: `error` is what cut the reply.
    if (error instanceof ReplyCutError) {
      const cut: ReplyCutError<ChatCompletion> = error;
      return { completion: undefined, deltas, error: cut.cause, cut };
    }
    return { completion: undefined, deltas, error, cut: undefined };
  }
}

describe('runChat streaming', () => {
  it('delivers deltas in order and assembles the 2.2 shape with usage from the final chunk', async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const { completion, deltas } = await chatWith(
      reply.sse([
        chunk(undefined, null, { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
        chunk('Hel'),
        chunk('lo'),
        chunk(undefined, 'stop'),
        `data: ${JSON.stringify({ id: 'chatcmpl-t', choices: [], usage })}\n\n`,
        'data: [DONE]\n\n',
      ]),
    );
    // Deltas of one network read arrive as one piece of text, in order.
    expect(deltas.join('')).toBe('Hello');
    expect(completion).toEqual({
      id: 'chatcmpl-t',
      object: 'chat.completion',
      created: 1,
      model: 'svc-pro',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage,
    });
  });

  it('a stream of n > 1 choices: each assembled under its index (for --json), only the first shown', async () => {
    const piece = (index: number, delta: object, finish: string | null = null) => chunk(undefined, null, { choices: [{ index, delta, finish_reason: finish }] });
    const { completion, deltas } = await chatWith(
      reply.sse([
        piece(0, { role: 'assistant', content: '' }),
        piece(1, { role: 'assistant', content: '' }),
        piece(0, { content: 'Hel' }),
        piece(1, { content: 'Bon' }),
        piece(1, { content: 'jour' }),
        piece(0, { content: 'lo' }),
        piece(1, {}, 'length'),
        piece(0, {}, 'stop'),
        'data: [DONE]\n\n',
      ]),
    );
    expect(deltas.join('')).toBe('Hello');
    expect(completion?.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'Bonjour' }, finish_reason: 'length' },
    ]);
  });

  it('a stream that ends after a finish_reason without [DONE] is complete', async () => {
    const { completion, error } = await chatWith(reply.sse([chunk('a'), chunk('b', 'length')]));
    expect(error).toBeUndefined();
    expect(completion?.choices[0]?.finish_reason).toBe('length');
    expect(completion?.choices[0]?.message.content).toBe('ab');
  });

  it('a stream that ends before [DONE] or a finish_reason is interrupted (exit 6), partial text kept', async () => {
    const { error, deltas, cut } = await chatWith(reply.sse([chunk('par'), chunk('tial')]));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('stream interrupted');
    expect(deltas.join('')).toBe('partial');
    expect(cut?.partial.choices[0]?.message.content).toBe('partial');
    // Reported as the error that cut it: the same message, hint and exit code.
    expect(cut?.message).toBe((error as Error).message);
    expect(exitCodeFor(cut)).toBe(6);
    expect(describeError(cut)).toEqual(describeError(error));
  });

  it('a connection cut mid-stream is interrupted too', async () => {
    const { error, deltas } = await chatWith(reply.sse([chunk('cut '), chunk('here')], { cut: true }));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(6);
    expect(deltas.join('')).toBe('cut here');
  });

  it('an error object mid-stream is a server error after the text so far', async () => {
    const { error, deltas, cut } = await chatWith(reply.sse([chunk('so far'), `data: {"error":{"message":"overloaded"}}\n\n`]));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as Error).message).toContain('overloaded');
    expect(deltas).toEqual(['so far']);
    expect(cut?.partial.choices[0]?.message.content).toBe('so far');
    expect(exitCodeFor(cut)).toBe(exitCodeFor(error));
    expect(describeError(cut)).toEqual(describeError(error));
  });

  it('an error given as a string, and an `event: error`, are server errors too', async () => {
    const asString = await chatWith(reply.sse([`data: {"error":"model crashed"}\n\n`]));
    expect((asString.error as Error).message).toContain('model crashed');
    const asEvent = await chatWith(reply.sse([chunk('x'), 'event: error\ndata: {"message":"gone away"}\n\n']));
    expect(asEvent.error).toBeInstanceOf(ServerError);
    expect((asEvent.error as Error).message).toContain('gone away');
  });

  it('non-JSON data is a clear malformed-response error', async () => {
    const { error } = await chatWith(reply.sse(['data: not json at all\n\n']));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toContain('not JSON');
  });

  it('data-less events and comments are ignored; [DONE] is trimmed', async () => {
    const { completion } = await chatWith(reply.sse([': ping\n\n', 'event: ping\n\n', 'data:\n\n', chunk('ok', 'stop'), 'data:  [DONE] \n\n']));
    expect(completion?.choices[0]?.message.content).toBe('ok');
  });

  it('a plain JSON body answering a streaming request is the whole completion', async () => {
    const body = { id: 'chatcmpl-j', object: 'chat.completion', created: 2, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }] };
    const { completion, deltas } = await chatWith(reply.json(200, body));
    expect(deltas).toEqual(['whole']);
    expect(completion?.choices[0]?.message.content).toBe('whole');
  });
});

describe('runChat non-streaming', () => {
  const plain: ChatRequest = { model: 'svc-pro', messages: [{ role: 'user', content: 'hi' }] };

  it('reads the completion', async () => {
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    const { completion } = await chatWith(reply.json(200, { id: 'c', object: 'chat.completion', created: 3, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'yes' }, finish_reason: 'stop' }], usage }), plain);
    expect(completion?.usage).toEqual(usage);
    expect(completion?.choices[0]?.message.content).toBe('yes');
  });

  it('every choice of an answer with n > 1 is kept (for --json), the first one the reply', async () => {
    const second = { index: 1, message: { role: 'assistant', content: 'no', refusal: null }, logprobs: null, finish_reason: 'stop' };
    const { completion, deltas } = await chatWith(reply.json(200, { id: 'c', object: 'chat.completion', created: 3, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'yes' }, finish_reason: 'stop' }, second] }), plain);
    expect(deltas.join('')).toBe('yes');
    expect(completion?.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'yes' }, finish_reason: 'stop' }, second]);
  });

  it('JSON of the wrong shape (no choices) is malformed', async () => {
    const { error } = await chatWith(reply.json(200, { id: 'c', object: 'chat.completion' }), plain);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toContain('without choices');
  });

  it('a body that is not JSON is malformed', async () => {
    const { error } = await chatWith(reply.text(200, '<html>hello</html>', 'application/json'), plain);
    expect(error).toBeInstanceOf(MalformedResponseError);
  });
});
