/**
 * The check before a send (src/chat/context-window.ts checkRequest, src/chat/server-window.ts):
 * the window from the settings first, else asked of the server once per model (llama-server's
 * /props, else the model list), a failing or silent server leaving it unknown; the service's
 * count of the last exchange used when it stands for one request; the warning's words; and the
 * decision autoCompact will take.
 */
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../src/api/chat-types.js';
import { checkRequest, shouldCompact, tooLongWarning, type ContextWindow } from '../../src/chat/context-window.js';
import { askServerWindow, checkBeforeSend, ContextWindows, lastExchange } from '../../src/chat/server-window.js';
import type { Turn } from '../../src/conversations/model.js';
import { ApiClient, createDispatcher } from '../../src/api/client.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const usage = (prompt: number, completion: number): Usage => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });
const turn = (extra: Partial<Turn> = {}): Turn => ({ user: 'q', assistant: 'a', model: 'm', usage: usage(300, 100), at: '2026-01-01T00:00:00Z', ...extra });
const window = (tokens: number, source: ContextWindow['source'] = 'server'): ContextWindow => ({ tokens, source });

describe('checkRequest: the one decision before a send', () => {
  const messages = [{ content: 'x'.repeat(400) }, { content: 'y'.repeat(400) }];

  it('estimates the whole request without a count, and keeps an eighth of the window (at most 1024) for the reply', () => {
    // 3 + 2 × (4 + 100)
    expect(checkRequest(messages, window(400))).toEqual({ window: window(400), estimate: 211, reserve: 50, fits: true });
    expect(checkRequest(messages, window(240))).toMatchObject({ estimate: 211, reserve: 30, fits: false });
  });

  it("uses the service's count of the last exchange plus an estimate of what is new, and the reply's max_tokens as its room", () => {
    const check = checkRequest(messages, window(1100), { last: { usage: usage(600, 200), added: 1 }, maxTokens: 100 });
    // 600 + 200 + (4 + 100)
    expect(check).toMatchObject({ estimate: 904, reserve: 100, fits: true });
    expect(checkRequest(messages, window(1100), { last: { usage: usage(600, 200), added: 1 }, maxTokens: 200 }).fits).toBe(false);
  });

  it('autoCompact: compacts only over its share of the window, never when off', () => {
    const check = checkRequest(messages, window(400));
    expect(shouldCompact(check, 50)).toBe(true);
    expect(shouldCompact(check, 60)).toBe(false);
    expect(shouldCompact(check, 'off')).toBe(false);
  });

  it('the warning says the size, the window and where it came from, that it is sent anyway, and what to do where the user is', () => {
    const check = checkRequest(messages, window(240));
    expect(tooLongWarning(check, 'tiny', 'session')).toBe(
      "this conversation is about 211 tokens, with 30 kept for the reply: more than tiny's context window of 240 (as the server says); sent anyway: /compact summarises earlier turns; if the window is larger, svc config set contextWindow.tiny N",
    );
    const set = tooLongWarning(checkRequest(messages, window(240, 'setting')), 'tiny', 'one-shot');
    expect(set).toContain('(as contextWindow says)');
    expect(set).toContain('svc chat --continue --compact summarises earlier turns');
  });
});

describe('lastExchange: when the last turn counts the exchange before', () => {
  it('a counted reply of one request to the same model: its usage, and one message new', () => {
    expect(lastExchange({ turns: [turn()] }, 'm')).toEqual({ usage: usage(300, 100), added: 1 });
  });

  it.each([
    ['no turns', [], 'm'],
    ['another model (another tokenizer)', [turn()], 'other'],
    ['tool steps (several requests summed)', [turn({ steps: [{ text: '', calls: [] }] })], 'm'],
    ['an interrupted reply', [turn({ interrupted: true })], 'm'],
    ['no usage', [turn({ usage: undefined })], 'm'],
    ['a usage of nothing', [turn({ usage: usage(0, 0) })], 'm'],
  ] as const)('%s: none', (_what, turns, model) => {
    expect(lastExchange({ turns: turns as readonly Turn[] }, model)).toBeUndefined();
  });

  it('after a compaction, only a turn sent since counts: one from before it counted the turns now summarised', () => {
    const activeCompaction = { summary: 'S', through: 2, kept: 2, at: '2026-11-28T00:00:00.000Z' };
    expect(lastExchange({ turns: [turn(), turn(), turn(), turn()], activeCompaction }, 'm')).toBeUndefined();
    expect(lastExchange({ turns: [turn(), turn(), turn()], activeCompaction }, 'm')).toBeUndefined();
    expect(lastExchange({ turns: [turn(), turn(), turn(), turn(), turn({ usage: usage(120, 30) })], activeCompaction }, 'm')).toEqual({ usage: usage(120, 30), added: 1 });
  });
});

describe('ContextWindows: the settings first, the server asked once per model', () => {
  it('a setting needs no asking; the server is asked once per model, an unknown answer remembered too', async () => {
    const asked: string[] = [];
    const windows = new ContextWindows({ all: 8192, perModel: { small: 512 } }, async (model) => {
      asked.push(model);
      return undefined;
    });
    expect(await windows.of('small')).toEqual({ tokens: 512, source: 'setting' });
    expect(await windows.of('other')).toEqual({ tokens: 8192, source: 'setting' });
    expect(asked).toEqual([]);
    const serverOnly = new ContextWindows({}, async (model) => {
      asked.push(model);
      return model === 'a' ? 4096 : undefined;
    });
    expect(await serverOnly.known('a')).toBeUndefined();
    expect(await serverOnly.of('a')).toEqual({ tokens: 4096, source: 'server' });
    expect(await serverOnly.of('a')).toEqual({ tokens: 4096, source: 'server' });
    expect(await serverOnly.known('a')).toEqual({ tokens: 4096, source: 'server' });
    expect(await serverOnly.of('b')).toBeUndefined();
    expect(await serverOnly.of('b')).toBeUndefined();
    expect(asked).toEqual(['a', 'b']);
  });

  it('checkBeforeSend asks nothing for a conversation without earlier turns', async () => {
    const asked: string[] = [];
    const windows = new ContextWindows({}, async (model) => {
      asked.push(model);
      return 100;
    });
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x'.repeat(800) }] };
    expect(await checkBeforeSend(windows, request, { turns: [] })).toBeUndefined();
    expect(asked).toEqual([]);
    expect(await checkBeforeSend(windows, request, { turns: [turn({ usage: undefined })] })).toMatchObject({ fits: false, window: { tokens: 100 } });
    expect(asked).toEqual(['m']);
  });
});

describe("askServerWindow: what the server says", () => {
  const scripted = useScriptedServer();
  const client = async (): Promise<ApiClient> =>
    new ApiClient({ baseUrl: `${scripted.server.baseUrl}/v1`, apiKey: 'sk-window-key', userAgent: 'svc-test', timeoutMs: 5000, maxRetries: 2, dispatcher: await createDispatcher(5000) });

  it("llama-server's /props at the server root, the key sent, the model named: its slot's n_ctx", async () => {
    scripted.server.script(reply.props(reply.json(200, { default_generation_settings: { n_ctx: 512 }, total_slots: 1 })));
    expect(await askServerWindow(await client(), 'tiny')).toBe(512);
    const [props] = scripted.server.requests;
    expect(props).toMatchObject({ method: 'GET', url: '/props?model=tiny' });
    expect(props!.headers.authorization).toBe('Bearer sk-window-key');
    expect(scripted.server.modelListAsks).toEqual([]);
  });

  it("no /props: the model list's entry for the model (context_length)", async () => {
    scripted.server.script(reply.modelList(reply.json(200, { object: 'list', data: [{ id: 'other', context_length: 1 }, { id: 'svc-mini', context_length: 32768 }] })));
    expect(await askServerWindow(await client(), 'svc-mini')).toBe(32768);
    expect(scripted.server.propsAsks.map((request) => request.url)).toEqual(['/props?model=svc-mini']);
  });

  it('a server failing is asked once, not retried, and the window stays unknown (no error)', async () => {
    scripted.server.script(reply.props(reply.json(503, { error: { message: 'loading model' } })), reply.modelList(reply.text(200, '<html>a portal</html>', 'text/html')));
    expect(await askServerWindow(await client(), 'tiny')).toBeUndefined();
    expect(scripted.server.requests.map((request) => request.url)).toEqual(['/props?model=tiny', '/v1/models']);
  });

  it("the key goes only to the service's own origin: a lookup elsewhere is refused before anything is sent", async () => {
    await expect((await client()).lookUp('http://127.0.0.1:9/props', 1000)).rejects.toThrow("svc looks up only the service's own pages");
    expect(scripted.server.requests).toEqual([]);
  });

  it('neither says: unknown', async () => {
    expect(await askServerWindow(await client(), 'tiny')).toBeUndefined();
    expect(scripted.server.propsAsks).toHaveLength(1);
    expect(scripted.server.modelListAsks).toHaveLength(1);
  });
});
