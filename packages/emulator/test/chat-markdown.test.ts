/**
 * The emulator speaks Markdown: asks for code, steps, a list, a table or a comparison get a reply
 * of that shape; plain questions keep their prose; max_tokens, stop and streaming treat the
 * Markdown like any other text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateReply } from '../src/extras/text/generate.js';
import { intentOf, type Intent } from '../src/extras/text/intent.js';
import { parseChatRequest } from '../src/extras/openai/chat-request.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { countTokens } from '../src/core/tokenizer.js';
import { chat, sseData } from './helpers/http.js';

const MODELS = [['svc-pro', 120], ['svc-mini', 75]] as const;

const reply = (content: string, model = 'svc-pro', seed?: number) => {
  const request = parseChatRequest({ model, messages: [{ role: 'user', content }], temperature: 0 });
  return seed === undefined ? generateReply(request) : generateReply(request, seed);
};

describe('intentOf', () => {
  it.each<[string, Intent]>([
    ['Write a Python function that reverses a string', { kind: 'code', language: 'python' }],
    ['How do I read a file in Go?', { kind: 'code', language: 'go' }],
    ['show me some javascript to debounce a handler', { kind: 'code', language: 'javascript' }],
    ['Give me a TypeScript example of a generic', { kind: 'code', language: 'typescript' }],
    ['a bash script to back up my photos', { kind: 'code', language: 'bash' }],
    ['write a rust function to parse json', { kind: 'code', language: 'rust' }],
    ['Write a SQL query for the top customers', { kind: 'code', language: 'sql' }],
    ['give me an example JSON config for a web server', { kind: 'code', language: 'json' }],
    ['code for a binary search', { kind: 'code', language: 'python' }],
    ['How do I bake sourdough bread at home?', { kind: 'steps' }],
    ['how do I learn Python?', { kind: 'steps' }],
    ['Give me step by step instructions to change a tyre', { kind: 'steps' }],
    ['Compare tea and coffee', { kind: 'table', subjects: ['tea', 'coffee'] }],
    ['Vim vs Emacs?', { kind: 'table', subjects: ['Vim', 'Emacs'] }],
    ['What is the difference between a list and a tuple in Python?', { kind: 'table', subjects: ['a list', 'a tuple in Python'] }],
    ['Make a table of the planets', { kind: 'table', subjects: [] }],
    ['name three rivers', { kind: 'list', count: 3 }],
    ['List some tips for running', { kind: 'list', count: undefined }],
    ['Why is the sky blue?', { kind: 'prose' }],
    ['How do rockets reach orbit?', { kind: 'prose' }],
    ['What is the function of the liver?', { kind: 'prose' }],
    ['Let us go to the beach', { kind: 'prose' }],
    ['Write a poem about autumn leaves', { kind: 'prose' }],
  ])('%j asks for %j', (text, intent) => {
    expect(intentOf(text)).toEqual(intent);
  });
});

/** The fenced code blocks of a Markdown text: info string and body. */
function fences(text: string): { info: string; body: string }[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gmu)].map((m) => ({ info: m[1]!, body: m[2]! }));
}

describe('Markdown replies', () => {
  it.each([
    ['Write a Python function that reverses a string', 'python', /def |class /],
    ['show me a javascript function that sums an array', 'javascript', /function /],
    ['write a typescript function to merge objects', 'typescript', /: (string|number)|interface /],
    ['write a bash script that renames photos', 'bash', /done$/m],
    ['write a go function that counts words', 'go', /func /],
    ['write a rust function to parse json', 'rust', /fn /],
    ['give me a SQL query for the top customers', 'sql', /^SELECT /m],
    ['show me an example JSON object for a user profile', 'json', /^\{/],
  ])('answers %j with one fenced %s block, for both models and many seeds', (ask, language, shape) => {
    for (const [model, ceiling] of MODELS) {
      for (let seed = 0; seed < 30; seed += 1) {
        const text = reply(ask, model, seed);
        const blocks = fences(text);
        expect(blocks.map((b) => b.info)).toEqual([language]);
        expect(blocks[0]!.body).toMatch(shape);
        // Prose around the block, with inline code pointing into it.
        expect(text).toMatch(/^[A-Z].*:\n\n```/u);
        expect(text).toMatch(/`[^`\n]+`/u);
        expect(countTokens(text)).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('writes the topic into the code', () => {
    expect(fences(reply('Give me a SQL query for the top customers', 'svc-mini'))[0]!.body).toContain('top_customers');
    expect(fences(reply('write a rust function to parse json', 'svc-mini'))[0]!.body).toContain('parse_json');
  });

  it('answers a how-to with numbered steps, bold leads and a tip', () => {
    for (const [model, ceiling] of MODELS) {
      for (let seed = 0; seed < 30; seed += 1) {
        const text = reply('How do I bake sourdough bread at home?', model, seed);
        const steps = text.split('\n').filter((line) => /^\d+\. /u.test(line));
        expect(steps.length).toBeGreaterThanOrEqual(3);
        steps.forEach((line, index) => expect(line).toMatch(new RegExp(`^${index + 1}\\. \\*\\*[^*]+\\*\\*`, 'u')));
        expect(text).toMatch(/\*\*Tip:\*\* /u);
        expect(countTokens(text)).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('answers a comparison with a GFM table: a header, a delimiter row and rows of the same width', () => {
    for (const [model, ceiling] of MODELS) {
      for (let seed = 0; seed < 30; seed += 1) {
        const text = reply('Compare tea and coffee', model, seed);
        const rows = text.split('\n').filter((line) => line.startsWith('|'));
        expect(rows[0]).toBe('| Aspect | Tea | Coffee |');
        expect(rows[1]).toBe('|---|---|---|');
        expect(rows.length).toBeGreaterThanOrEqual(4);
        for (const row of rows) expect(row.split('|').length).toBe(5);
        expect(text).toMatch(/\*\*tea\*\*.*\*\*coffee\*\*/u);
        expect(countTokens(text)).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('answers a list ask with bullets, as many as asked for', () => {
    for (const [model] of MODELS) {
      const text = reply('name three rivers', model);
      expect(text.split('\n').filter((line) => /^- \*\*[^*]+\*\*: /u.test(line))).toHaveLength(3);
    }
    expect(reply('List some tips for running').split('\n').filter((line) => line.startsWith('- ')).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps prose for plain questions', () => {
    for (const ask of ['Why is the sky blue?', 'How do rockets reach orbit?', 'Tell me about whales']) {
      const text = reply(ask);
      expect(text).not.toMatch(/\n|```|\*\*|^\|/u);
    }
  });

  it('is the same for the same ask at temperature 0, and differs with the seed', () => {
    const ask = 'Write a Python function that reverses a string';
    expect(reply(ask)).toBe(reply(ask));
    const variants = new Set(Array.from({ length: 12 }, (_, seed) => reply(ask, 'svc-pro', seed)));
    expect(variants.size).toBeGreaterThan(1);
  });
});

describe('Markdown replies over HTTP', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(() => emu.close());

  const base = { messages: [{ role: 'user', content: 'Write a Python function that reverses a string' }], temperature: 0 };
  const answer = async (extra: Record<string, unknown> = {}) => (await chat(emu, { ...base, ...extra })).json;

  it('cuts a code reply at max_tokens inside the block, with finish_reason length', async () => {
    const full: string = (await answer()).choices[0].message.content;
    const fenceAt = countTokens(full.slice(0, full.indexOf('```') + 3));
    const cut = await answer({ max_tokens: fenceAt + 1 });
    expect(cut.choices[0].finish_reason).toBe('length');
    expect(cut.choices[0].message.content).toBe(full.slice(0, cut.choices[0].message.content.length));
    expect(cut.choices[0].message.content).toMatch(/\n```python$/u);
  });

  it('stops before a stop string that is a fence, with finish_reason stop', async () => {
    const full: string = (await answer()).choices[0].message.content;
    const stopped = await answer({ stop: '```' });
    expect(stopped.choices[0].finish_reason).toBe('stop');
    expect(stopped.choices[0].message.content).toBe(full.slice(0, full.indexOf('```')));
  });

  it('streams the Markdown markers split across chunks, adding up to the whole reply', async () => {
    const full: string = (await answer()).choices[0].message.content;
    const events = sseData((await chat(emu, { ...base, stream: true })).text);
    type Chunk = { choices: { delta: { content?: string } }[] };
    const deltas = (events.slice(0, -1) as Chunk[]).map((c) => c.choices[0]?.delta.content ?? '').filter((d) => d !== '');
    expect(deltas.join('')).toBe(full);
    // A fence and a bold marker never arrive whole: a renderer must join them itself.
    expect(deltas.some((d) => d.includes('```'))).toBe(false);
    expect(deltas).toContain('`');
    const steps: string = (await chat(emu, { messages: [{ role: 'user', content: 'How do I bake bread?' }], temperature: 0, stream: true })).text;
    const stepDeltas = (sseData(steps).slice(0, -1) as Chunk[]).map((c) => c.choices[0]?.delta.content ?? '');
    expect(stepDeltas.join('')).toContain('**');
    expect(stepDeltas.some((d) => d.includes('**'))).toBe(false);
  });
});
