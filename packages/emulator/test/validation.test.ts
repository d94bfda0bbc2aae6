import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { MAX_BODY_BYTES } from '../src/core/http.js';
import { chat, chatBody, errorShape, send } from './helpers/http.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

const user = { role: 'user', content: 'hello there' };

/** [what, body, param, message pattern] — each body must be refused with 400 naming `param`. */
const invalid: [string, Record<string, unknown>, string | null, RegExp][] = [
  ['messages missing', { model: 'svc-pro' }, 'messages', /Missing required parameter: 'messages'/],
  ['messages null', { messages: null }, 'messages', /Missing required parameter/],
  ['messages not an array', { messages: 'hi' }, 'messages', /messages must be an array/],
  ['messages empty', { messages: [] }, 'messages', /at least one message/],
  ['message not an object', { messages: [user, 'hi'] }, 'messages[1]', /messages\[1\] must be an object/],
  ['message is an array', { messages: [[]] }, 'messages[0]', /must be an object/],
  ['role missing', { messages: [user, { content: 'x' }] }, 'messages[1].role', /Missing required parameter: 'messages\[1\].role'/],
  ['role unknown', { messages: [user, { role: 'bot', content: 'x' }] }, 'messages[1].role', /one of system, developer, user, assistant, tool; got "bot"/],
  ['role not a string', { messages: [{ role: 1, content: 'x' }] }, 'messages[0].role', /one of system, developer, user, assistant, tool/],
  ['a tool message without its call', { messages: [user, { role: 'tool', content: 'x' }] }, 'messages[1].tool_call_id', /Missing required parameter: 'messages\[1\].tool_call_id'/],
  ['content missing', { messages: [{ role: 'user' }] }, 'messages[0].content', /Missing required parameter/],
  ['content null', { messages: [{ role: 'user', content: null }] }, 'messages[0].content', /Missing required parameter/],
  ['content not a string', { messages: [{ role: 'user', content: 5 }] }, 'messages[0].content', /must be a string or a non-empty array of content parts; got 5/],
  ['content an empty array', { messages: [{ role: 'user', content: [] }] }, 'messages[0].content', /non-empty array of content parts/],
  ['a content part of an unknown type', { messages: [{ role: 'user', content: [{ type: 'audio' }] }] }, 'messages[0].content[0].type', /one of text, image_url; got "audio"/],
  ['an image part without a url', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url', /must be an object with a url/],
  ['extra message field', { messages: [{ role: 'user', content: 'x', mood: 'happy' }] }, 'messages[0].mood', /Unrecognized request argument supplied: messages\[0\].mood/],
  ['n above 8', { messages: [user], n: 9 }, 'n', /n must be an integer from 1 to 8; got 9/],
  ['n zero', { messages: [user], n: 0 }, 'n', /n must be an integer of at least 1/],
  ['seed not an integer', { messages: [user], seed: 1.5 }, 'seed', /seed must be an integer; got 1.5/],
  ['max_completion_tokens against max_tokens', { messages: [user], max_tokens: 5, max_completion_tokens: 6 }, 'max_tokens', /both given with different values/],
  ['response_format of an unknown type', { messages: [user], response_format: { type: 'yaml' } }, 'response_format.type', /one of text, json_object, json_schema; got "yaml"/],
  ['response_format json_schema without a name', { messages: [user], response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name', /Missing required parameter/],
  ['model not a string', { messages: [user], model: 3 }, 'model', /model must be a string/],
  ['max_tokens zero', { messages: [user], max_tokens: 0 }, 'max_tokens', /max_tokens must be an integer of at least 1; got 0/],
  ['max_tokens fraction', { messages: [user], max_tokens: 1.5 }, 'max_tokens', /integer/],
  ['max_tokens string', { messages: [user], max_tokens: '10' }, 'max_tokens', /integer of at least 1; got "10"/],
  ['temperature above 2', { messages: [user], temperature: 3 }, 'temperature', /^temperature must be a number between 0 and 2; got 3$/],
  ['temperature below 0', { messages: [user], temperature: -0.1 }, 'temperature', /between 0 and 2; got -0.1/],
  ['temperature string', { messages: [user], temperature: 'hot' }, 'temperature', /got "hot"/],
  ['top_p above 1', { messages: [user], top_p: 1.5 }, 'top_p', /top_p must be a number between 0 and 1; got 1.5/],
  ['top_p below 0', { messages: [user], top_p: -1 }, 'top_p', /between 0 and 1/],
  ['stream not boolean', { messages: [user], stream: 'yes' }, 'stream', /stream must be a boolean/],
  ['stop a number', { messages: [user], stop: 5 }, 'stop', /stop must be a non-empty string or an array of 1 to 4/],
  ['stop empty array', { messages: [user], stop: [] }, 'stop', /array of 1 to 4/],
  ['stop five strings', { messages: [user], stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop', /array of 1 to 4/],
  ['stop with a number', { messages: [user], stop: ['a', 1] }, 'stop', /array of 1 to 4/],
  ['stop empty string', { messages: [user], stop: '' }, 'stop', /non-empty/],
  ['presence_penalty above 2', { messages: [user], presence_penalty: 2.5 }, 'presence_penalty', /between -2 and 2; got 2.5/],
  ['presence_penalty below -2', { messages: [user], presence_penalty: -3 }, 'presence_penalty', /between -2 and 2/],
  ['frequency_penalty above 2', { messages: [user], frequency_penalty: 9 }, 'frequency_penalty', /frequency_penalty must be a number between -2 and 2/],
  ['frequency_penalty below -2', { messages: [user], frequency_penalty: -2.01 }, 'frequency_penalty', /between -2 and 2/],
  ['user not a string', { messages: [user], user: 42 }, 'user', /user must be a string/],
  ['stream_options without stream', { messages: [user], stream_options: { include_usage: true } }, 'stream_options', /only allowed when stream is true/],
  ['stream_options with stream false', { messages: [user], stream: false, stream_options: {} }, 'stream_options', /only allowed when stream is true/],
  ['stream_options not an object', { messages: [user], stream: true, stream_options: true }, 'stream_options', /must be an object/],
  ['include_usage not boolean', { messages: [user], stream: true, stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage', /must be a boolean/],
  ['stream_options unknown key', { messages: [user], stream: true, stream_options: { foo: 1 } }, 'stream_options.foo', /Unrecognized request argument supplied: stream_options.foo/],
  ['unknown top-level field', { messages: [user], frobnicate: 2 }, 'frobnicate', /^Unrecognized request argument supplied: frobnicate$/],
  ['unknown field reported before others', { messages: 'bad', function: [] }, 'function', /Unrecognized request argument supplied: function$/],
  ['body an array', [user] as unknown as Record<string, unknown>, null, /must be a JSON object/],
];

describe('chat request validation', () => {
  it.each(invalid)('refuses %s', async (_what, body, param, message) => {
    const answer = await chat(emu, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ param, code: expect.any(String) }));
    expect(answer.json.error.message).toMatch(message);
  });

  const valid: [string, Record<string, unknown>][] = [
    ['the bounds themselves', { temperature: 2, top_p: 0, presence_penalty: -2, frequency_penalty: 2, max_tokens: 1 }],
    ['the other bounds', { temperature: 0, top_p: 1, presence_penalty: 2, frequency_penalty: -2 }],
    ['null for every optional field', { model: null, max_tokens: null, temperature: null, top_p: null, stream: null, stop: null, presence_penalty: null, frequency_penalty: null, user: null, stream_options: null }],
    ['stop as a string and user', { stop: 'xyz', user: 'user-1' }],
    ['stop as four strings', { stop: ['a1', 'b2', 'c3', 'd4'] }],
    ['every role and an empty content', { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: '' }, user] }],
    ['stream_options with stream', { stream: true, stream_options: { include_usage: false } }],
  ];
  it.each(valid)('accepts %s', async (_what, extra) => {
    const answer = await chat(emu, chatBody(extra));
    expect(answer.status).toBe(200);
  });

  it('treats null as absent: the defaults apply', async () => {
    const answer = await chat(emu, chatBody({ model: null, stream: null }));
    expect(answer.json.model).toBe('svc-pro');
    expect(answer.json.object).toBe('chat.completion');
  });
});

describe('request body', () => {
  it.each([
    ['an empty Content-Type', { 'content-type': '' }, /Content-Type: application\/json/],
    ['text/plain', { 'content-type': 'text/plain' }, /Content-Type: application\/json; got Content-Type 'text\/plain'/],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, /Content-Type: application\/json/],
    ['JSON in another charset', { 'content-type': 'application/json; charset=latin1' }, /must be UTF-8 encoded JSON; got charset 'latin1'/],
  ])('refuses %s with a 400 that says JSON is required', async (_what, headers, message) => {
    const answer = await send(emu, { body: JSON.stringify(chatBody()), headers });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ code: 'invalid_content_type' }));
    expect(answer.json.error.message).toMatch(message);
  });

  it('accepts application/json with a charset, in any case', async () => {
    const answer = await send(emu, { body: chatBody(), headers: { 'content-type': 'Application/JSON; charset=UTF-8' } });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['broken JSON', '{"messages": [', /could not parse the JSON body/],
    ['an empty body', '', /empty/],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), /not valid UTF-8/],
  ])('refuses %s with 400', async (_what, body, message) => {
    const answer = await send(emu, { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ code: 'invalid_json' }));
    expect(answer.json.error.message).toMatch(message);
  });

  it.each([['a string', '"hi"'], ['null', 'null'], ['a number', '3']])('refuses a body that is %s', async (_what, body) => {
    const answer = await send(emu, { body });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/must be a JSON object/);
  });

  it('refuses a body over 64 MiB (room for 50 MB of images in base64) with 413', async () => {
    expect(MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
    const answer = await send(emu, { body: JSON.stringify(chatBody({ user: 'x'.repeat(MAX_BODY_BYTES) })) });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual(errorShape({ code: 'request_too_large' }));
  });

  it('accepts a body just under 64 MiB', async () => {
    const body = JSON.stringify(chatBody({ user: 'x'.repeat(MAX_BODY_BYTES - 200) }));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const answer = await send(emu, { body });
    expect(answer.status).toBe(200);
  });
});
