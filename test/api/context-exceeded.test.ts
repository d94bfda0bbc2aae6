/**
 * A service's "does not fit the context window" answer (src/api/context-exceeded.ts), in the
 * words and shapes real servers send: told apart from other 400s, an exit 4 whose hint names
 * /compact and --continue --compact, whether it came as an HTTP 400 or inside a stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_EXCEEDED_HINT, isContextExceeded } from '../../src/api/context-exceeded.js';
import { extractServiceMessage, serviceErrorIn } from '../../src/api/service-message.js';
import { errorForStatus } from '../../src/api/status-errors.js';
import { ExitCode, RejectedError } from '../../src/core/errors.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

/** Bodies as the servers send them (llama.cpp's format_error_response; OpenAI's error object). */
const LLAMA_2025 = { error: { code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'invalid_request_error' } };
const LLAMA_NOW = { error: { code: 400, message: 'request (600 tokens) exceeds the available context size (512 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 600, n_ctx: 512 } };
const OPENAI = {
  error: {
    message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};

describe('isContextExceeded', () => {
  it.each([
    ['llama-server, early 2025', 400, LLAMA_2025.error.message, '400'],
    ['llama-server, recent', 400, LLAMA_NOW.error.message, '400'],
    ['llama-server, newest wording', 400, 'request (600 tokens) exceeds context size (512 tokens)', '400'],
    ['llama-server, older builds', 400, 'input (600 tokens) is larger than the max context size (512 tokens). skipping', '400'],
    ['llama-server, inside a stream', 0, LLAMA_2025.error.message, '400'],
    ['OpenAI (the code alone is enough)', 400, 'Invalid request.', 'context_length_exceeded'],
    ['OpenAI', 400, OPENAI.error.message, 'context_length_exceeded'],
    ['vLLM', 400, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4900 in the messages, 100 in the completion). Please reduce the length of the messages or completion.", undefined],
    ['vLLM, newer', 400, 'The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.', 'BadRequestError'],
    ['LM Studio', 400, 'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.', undefined],
    ['Mistral', 400, 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', 'invalid_request_error'],
    ['Anthropic', 400, 'prompt is too long: 215000 tokens > 200000 maximum', 'invalid_request_error'],
    ['Gemini', 400, 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', 'INVALID_ARGUMENT'],
    ['Groq', 400, 'Please reduce the length of the messages or completion.', 'context_length_exceeded'],
    ['llama-server, the reply reaching the end of the window (a 500 in the stream)', 500, 'context shift is disabled', '500'],
  ])('%s: yes', (_server, status, message, code) => {
    expect(isContextExceeded(status, message, code)).toBe(true);
  });

  it.each([
    ['a parameter out of range', 400, "max_tokens is too large: 100000. This model supports at most 4096 completion tokens, whereas you provided 100000.", 'invalid_request_error'],
    ['a bad parameter', 400, "Invalid value for 'temperature': must be between 0 and 2.", 'invalid_value'],
    ['a refused image', 400, "Invalid content type. image_url is only supported by certain models.", undefined],
    ['a proxy: the body is too large', 413, 'Request Entity Too Large', undefined],
    ['a server failing', 500, 'the request exceeds the available context size', '500'],
    ['no words at all', 400, undefined, undefined],
  ])('%s: no', (_what, status, message, code) => {
    expect(isContextExceeded(status, message, code)).toBe(false);
  });
});

describe('the error svc makes of it', () => {
  it.each([
    ['llama-server', LLAMA_NOW],
    ['OpenAI', OPENAI],
  ])('%s, HTTP 400: RejectedError (exit 4), the words as the service gave them, the hint naming /compact', (_server, body) => {
    const service = extractServiceMessage(JSON.stringify(body), 'application/json');
    const error = errorForStatus({ status: 400, service, requestId: undefined, url: 'http://127.0.0.1:8080/v1/chat/completions', retriesDone: 0 });
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.exitCode).toBe(ExitCode.rejected);
    expect(error.message).toBe(body.error.message);
    expect(error.hint).toBe(CONTEXT_EXCEEDED_HINT);
    expect(error.hint).toContain('/compact');
    expect(error.hint).toContain('svc chat --continue --compact');
  });

  it('another 400 gets no such hint', () => {
    const service = extractServiceMessage(JSON.stringify({ error: { message: 'Unknown parameter: foo', code: 'unknown_parameter' } }), 'application/json');
    expect(errorForStatus({ status: 400, service, requestId: undefined, url: 'http://x/v1/chat/completions', retriesDone: 0 }).hint).toBeUndefined();
  });

  it("llama-server's error inside a stream (its SSE `error:` line): exit 4 with the hint", () => {
    const error = serviceErrorIn(LLAMA_2025.error, JSON.stringify(LLAMA_2025.error), undefined, 'stream-start');
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe(`the service reported an error before the reply began: ${LLAMA_2025.error.message}`);
    expect(error.hint).toBe(CONTEXT_EXCEEDED_HINT);
    const other = serviceErrorIn({ code: 400, message: 'bad grammar', type: 'invalid_request_error' }, '', undefined, 'stream-start');
    expect(other.hint).toBeUndefined();
  });

  it('an error event that names the window with no code at all is the request\'s problem too (exit 4), not the service failing', () => {
    const error = serviceErrorIn({ message: 'context length exceeded' }, '', undefined, 'stream');
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.exitCode).toBe(ExitCode.rejected);
    expect(error.hint).toBe(CONTEXT_EXCEEDED_HINT);
    expect(serviceErrorIn({ message: 'the model crashed' }, '', undefined, 'stream').exitCode).toBe(ExitCode.failure);
    // llama.cpp puts the HTTP status in `code`: a 500 is the server failing, whatever its words.
    expect(serviceErrorIn({ code: 500, message: 'the request exceeds the available context size', type: 'server_error' }, '', undefined, 'stream').exitCode).toBe(ExitCode.failure);
  });
});

describe('svc chat meeting it', () => {
  let server: ScriptedServer;
  let sandbox: Sandbox;
  beforeAll(async () => {
    server = await startScriptedServer();
    sandbox = makeSandbox({ SVC_API_KEY: 'sk-context', SVC_MAX_RETRIES: '0', SVC_MODEL: 'tiny' });
    sandbox.env.SVC_BASE_URL = server.baseUrl;
  });
  afterAll(async () => {
    await server.close();
    sandbox.cleanup();
  });

  it('llama-server refusing the prompt with HTTP 400: exit 4, its words, then the hint', async () => {
    server.script(reply.json(400, LLAMA_NOW));
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'a long question'], sandbox);
    expect(result.exitCode).toBe(ExitCode.rejected);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`svc: error: ${LLAMA_NOW.error.message} (HTTP 400)\n  ${CONTEXT_EXCEEDED_HINT}\n`);
  });

  it('llama-server running out of window mid-reply ("context shift is disabled"): the text so far on stdout, exit 4 with the hint', async () => {
    server.script(reply.sse([`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'a start' }, finish_reason: null }] })}\n\n`, `error: ${JSON.stringify({ code: 500, message: 'context shift is disabled', type: 'server_error' })}\n\n`, 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', 'a long question'], sandbox);
    expect(result.exitCode).toBe(ExitCode.rejected);
    expect(result.stdout).toContain('a start');
    expect(result.stderr).toContain('svc: error: the service reported an error mid-reply: context shift is disabled');
    expect(result.stderr).toContain(CONTEXT_EXCEEDED_HINT);
  });

  it('llama-server refusing it inside a stream: exit 4 with the hint', async () => {
    server.script(reply.sse([`error: ${JSON.stringify(LLAMA_2025.error)}\n\n`, 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', 'a long question'], sandbox);
    expect(result.exitCode).toBe(ExitCode.rejected);
    expect(result.stderr).toContain(`svc: error: the service reported an error before the reply began: ${LLAMA_2025.error.message}`);
    expect(result.stderr).toContain(CONTEXT_EXCEEDED_HINT);
  });
});
