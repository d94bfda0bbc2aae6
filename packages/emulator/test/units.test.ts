import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_BLACKLIST, createBlacklist } from '../src/core/blacklist.js';
import { limitReply } from '../src/core/chat/completion.js';
import { generateReply } from '../src/extras/text/generate.js';
import { keywords } from '../src/extras/text/keywords.js';
import { ROLES } from '../src/core/chat/request.js';
import { parseChatRequest } from '../src/extras/openai/chat-request.js';
import { createRng, seedFromText } from '../src/extras/random.js';
import { countPromptTokens, countTokens, tokenize } from '../src/core/tokenizer.js';

describe('tokenizer', () => {
  it('splits words with their leading space, and punctuation', () => {
    expect(tokenize('Hello, world! It\'s 2024.')).toEqual(['Hello', ',', ' world', '!', ' It', "'s", ' 2024', '.']);
    // As in GPT-2, a whitespace run leaves its last character to go with the next word.
    expect(tokenize('a\n\nb')).toEqual(['a', '\n', '\n', 'b']);
    expect(tokenize('a   b')).toEqual(['a', '  ', ' b']);
    expect(tokenize('')).toEqual([]);
  });

  it('keeps combining marks with their letters', () => {
    expect(tokenize('cafe\u0301 noir')).toEqual(['cafe\u0301', ' noir']);
    expect(tokenize('नमस्ते दुनिया')).toEqual(['नमस्ते', ' दुनिया']);
    // A mark with no letter before it is a piece of its own, so nothing is lost.
    expect(tokenize('\u0301x')).toEqual(['\u0301', 'x']);
  });

  it('is lossless for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => tokenize(text).join('') === text));
  });

  it('counts prompt tokens with a per-message overhead', () => {
    expect(countPromptTokens([{ role: 'user', content: '' }])).toBe(3 + 4);
    expect(countPromptTokens([{ role: 'user', content: 'Hello world' }, { role: 'assistant', content: 'Hi' }])).toBe(3 + 4 + 2 + 4 + 1);
  });
});

describe('limitReply', () => {
  const text = 'One two. Three four. Five.';
  it.each([
    [[], undefined, text, 'stop'],
    [['.'], undefined, 'One two', 'stop'],
    [[' four', ' two'], undefined, 'One', 'stop'],
    [['One'], undefined, '', 'stop'],
    [[], 2, 'One two', 'length'],
    [['Five'], 3, 'One two.', 'length'],
    [['.'], 2, 'One two', 'stop'],
    [[], 100, text, 'stop'],
  ])('stop %j, max_tokens %j → %j (%s)', (stop, maxTokens, content, finishReason) => {
    const result = limitReply(text, stop, maxTokens);
    expect(result.tokens.join('')).toBe(content);
    expect(result.finishReason).toBe(finishReason);
  });
});

describe('keywords', () => {
  it.each([
    ['How do I bake sourdough bread at home?', ['sourdough', 'bread', 'bake', 'home']],
    ['Tell me about the Roman Empire. Rome was big.', ['Empire', 'Roman', 'rome', 'big']],
    ['Is my API secure? The API uses HTTP.', ['API', 'HTTP', 'secure']],
    ['How does it compare with Docker Swarm?', ['Docker', 'Swarm']],
    ['hi there, can you help?', []],
    ['Is a state-of-art well-known a-b-c-d-e?', ['state-of-art', 'well-known']],
  ])('picks the key words of %j', (text, expected) => {
    expect(keywords(text)).toEqual(expected);
  });
});

describe('blacklist', () => {
  it('exports a few harmful-sounding built-in terms', () => {
    expect(BUILTIN_BLACKLIST).toContain('bioweapon');
    expect(BUILTIN_BLACKLIST.length).toBeGreaterThanOrEqual(3);
  });

  it('matches case-insensitively across whitespace, adds extra terms and drops blank ones', () => {
    const list = createBlacklist(['Secret  Sauce', '', '  ']);
    expect(list.find('my SECRET\tsauce recipe')).toBe('secret sauce');
    expect(list.find('a BioWeapon')).toBe('bioweapon');
    expect(list.find('an ordinary sentence')).toBeUndefined();
    expect(list.terms).not.toContain('');
  });
});

describe('random', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = createRng(seedFromText('x'));
    const b = createRng(seedFromText('x'));
    const c = createRng(seedFromText('y'));
    const seqA = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(seqA);
    expect([c.next(), c.next(), c.next()]).not.toEqual(seqA);
    for (const value of seqA) expect(value >= 0 && value < 1).toBe(true);
  });

  it('keeps int() within bounds and shuffle() a permutation', () => {
    const rng = createRng(7);
    for (let i = 0; i < 1000; i += 1) {
      const n = rng.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
    }
    expect(rng.shuffle([1, 2, 3, 4]).sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('generateReply', () => {
  // Besides random text, words joined by hyphens: each counts as many tokens, the worst case for length.
  const joined = fc.array(fc.stringMatching(/^[a-zA-Z]{1,3}$/), { minLength: 1, maxLength: 12 }).map((parts) => parts.join('-'));
  // And words full of combining marks: decomposed accents, Devanagari vowel signs.
  const marked = fc.array(fc.constantFrom('e\u0301', 'a\u0308', 'n\u0303', 'क\u093f', 'त\u093e', 'ह\u093f\u0902', 'न्द'), { minLength: 1, maxLength: 10 }).map((parts) => parts.join(''));
  const words = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.array(joined, { maxLength: 8 }).map((parts) => parts.join(' ')),
    fc.array(marked, { maxLength: 8 }).map((parts) => parts.join(' ')),
  );
  // Asks for a Markdown reply (code, steps, a list, a table) around the same worst-case words.
  const asks = fc.constantFrom(
    'Write a Python function for {w}', 'Show me {w} in Go', 'Give me a SQL query for {w}', 'write a rust function to {w}',
    'bash script: {w}', 'a JSON example of {w}', 'typescript code {w}', 'javascript snippet {w}',
    'How do I {w}?', 'steps to {w}', 'List {w}', 'name three {w}', 'Compare {w} and {w}', '{w} vs {w}', 'a table of {w}',
  );
  const shaped = fc.tuple(asks, words, words).map(([ask, a, b]) => ask.replace('{w}', a).replace('{w}', b));
  const content = fc.oneof(words, shaped);
  // The roles a message may have without more fields (a tool message needs its tool_call_id).
  const message = fc.record({ role: fc.constantFrom(...ROLES.filter((role) => role !== 'tool')), content });
  const request = fc.record({
    messages: fc.array(message, { minLength: 1, maxLength: 5 }),
    model: fc.constantFrom('svc-pro', 'svc-mini'),
  });

  it('keeps the promises stop tests rely on for any conversation', () => {
    fc.assert(fc.property(request, fc.integer(), (body, seed) => {
      const reply = generateReply(parseChatRequest(body), seed >>> 0);
      expect(reply).toContain(' the');
      expect(reply).toContain('.');
      // Prose is one paragraph of sentences; Markdown replies (code, lists, tables) have lines.
      if (!reply.includes('\n')) {
        const sentences = reply.split(/(?<=\.) /);
        expect(sentences.length).toBeGreaterThanOrEqual(3);
        for (const sentence of sentences) expect(sentence.endsWith('.')).toBe(true);
      } else {
        // A reply of lines is Markdown: a fence, numbered steps, bullets or a table.
        expect(reply).toMatch(/^(```|\d+\. |- |\| )/mu);
      }
      const tokens = countTokens(reply);
      expect(tokens).toBeGreaterThanOrEqual(30);
      expect(tokens).toBeLessThanOrEqual(body.model === 'svc-mini' ? 90 : 140);
    }), { numRuns: 200 });
  });

  it('is a function of the seed at temperature 0', () => {
    const req = parseChatRequest({ messages: [{ role: 'user', content: 'Tell me about whales' }], temperature: 0 });
    expect(generateReply(req)).toBe(generateReply(req));
    expect(generateReply(req, 1)).not.toBe(generateReply(req, 2));
  });
});
