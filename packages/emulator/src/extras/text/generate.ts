/**
 * Builds the reply text for a conversation: readable English that mentions the key words of the
 * last user message and refers back to earlier turns, from the templates in `templates.ts`.
 *
 * Determinism: at temperature 0 the seed is a hash of the model, the messages and the sampling
 * options, so the same request always gets the same reply; above 0 the seed is random. The
 * options that only cut or deliver the reply (`max_tokens`, `stop`, `stream`, `stream_options`,
 * `user`) are left out of the hash on purpose: as with a real model at temperature 0, a cut reply
 * is a prefix of the uncut one, and streamed deltas add up to the non-streamed content.
 *
 * A message that asks for code, steps, a list, a table or a comparison gets a Markdown reply of
 * that shape (structured.ts); every other message gets prose.
 *
 * A system message asking for a single shell command or a commit message gets exactly that
 * (system-asks.ts). Otherwise, words a test can rely on (see the invariants in templates.ts and
 * structured.ts): every reply contains ` the` and a full stop; in a prose reply every sentence ends with `.` and there are at
 * least three sentences. After tools ran the reply says what they returned (tool-results.ts),
 * and the images of a message are described before the reply (seen-images.ts).
 */
import { createRng, randomSeed, seedFromText, type Rng } from '../random.js';
import { countTokens } from '../../core/tokenizer.js';
import { intentOf, isShapeWord, type Intent } from './intent.js';
import { keywords } from './keywords.js';
import type { ChatRequest } from '../openai/chat-request.js';
import { structuredReply } from './structured.js';
import { jsonReply } from '../openai/response-format.js';
import { askingParts, makeCall, subjectWords, toolsToCall } from '../openai/tools.js';
import type { ToolCall } from '../../core/chat/completion.js';
import { commitMessageFor, conversationSummaryFor, shellCommandFor, systemAskOf, translationFor } from './system-asks.js';
import { toolResultsReply } from './tool-results.js';
import {
  BODY_SENTENCES, CLOSERS, EARLIER_REFERENCES, FALLBACK_WORDS, QUESTION_OPENERS, STATEMENT_OPENERS,
} from './templates.js';

/** Reply length in tokens, by model: the mini model is terser. */
const LENGTHS: Record<string, { min: number; max: number }> = {
  'svc-mini': { min: 40, max: 75 },
  'svc-pro': { min: 65, max: 120 },
};
const DEFAULT_LENGTH = { min: 40, max: 120 };

/** The seed for a request: a hash of what defines the reply at temperature 0, random otherwise. */
export function replySeed(request: ChatRequest): number {
  // A seed makes the reply reproducible whatever the temperature (OpenAI's best-effort promise).
  if (request.seed !== undefined) return seedFromText(JSON.stringify({ seed: request.seed, model: request.model, messages: request.messages }));
  if (request.temperature > 0) return randomSeed();
  const { model, messages, temperature, topP, presencePenalty, frequencyPenalty } = request;
  return seedFromText(JSON.stringify({ model, messages, temperature, topP, presencePenalty, frequencyPenalty }));
}

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = slots[name.toLowerCase()] ?? '';
    return name[0] === name[0]?.toUpperCase() ? value.charAt(0).toUpperCase() + value.slice(1) : value;
  });
}

/** The key words to write about, padded with stand-ins so every slot has something readable. */
function slotsFor(request: ChatRequest, rng: Rng): Record<string, string> {
  const { messages } = request;
  const users = messages.filter((m) => m.role === 'user');
  const last = users.at(-1) ?? messages.at(-1);
  const words = keywords(last?.content ?? '');
  const earlierTurns = messages.slice(0, last ? messages.lastIndexOf(last) : 0).filter((m) => m.role !== 'system');
  // The top two words of each turn are what it was about; deeper ones are mostly filler.
  const earlierWords = earlierTurns.flatMap((m) => keywords(m.content, 2)).filter((w) => !words.includes(w));
  const fallback = rng.shuffle(FALLBACK_WORDS);
  const [topic = fallback[0] ?? '', b = fallback[1] ?? '', c = fallback[2] ?? ''] = words.length > 0
    ? [words[0], ...rng.shuffle(words.slice(1)), ...fallback]
    : fallback;
  return { topic, b, c, earlier: earlierWords.length > 0 ? rng.pick(earlierWords) : '' };
}

/**
 * Two or more of `sentences` (in their order) to go between `head` and `closer`: more while the
 * reply stays under `max` tokens and is shorter than `target`.
 */
function chooseBody(head: string[], closer: string, sentences: string[], target: number, max: number): string[] {
  const body: string[] = [];
  // Sentences passed over because they would break the ceiling; the shortest of them fill in
  // only if fewer than two fit, because two body sentences are promised.
  const tooLong: string[] = [];
  for (const sentence of sentences) {
    const length = countTokens([...head, ...body, sentence, closer].join(' '));
    if (length > max) {
      tooLong.push(sentence);
      continue;
    }
    body.push(sentence);
    if (body.length >= 2 && length >= target) break;
  }
  tooLong.sort((a, b) => countTokens(a) - countTokens(b));
  while (body.length < 2 && tooLong.length > 0) body.push(tooLong.shift() ?? '');
  return body;
}

/**
 * The full reply for `request`, before `max_tokens` and `stop` are applied: an opener, a reference
 * to an earlier turn when there is one and it fits, two or more body sentences, and a closer.
 */
export function generateReply(request: ChatRequest, seed = replySeed(request)): string {
  const lastUser = request.messages.filter((m) => m.role === 'user').at(-1)?.content.trim() ?? '';
  // A system message asking for a bare command, a commit message or a translation is obeyed to the letter.
  const asked = systemAskOf(request.messages);
  if (asked === 'shell-command') return shellCommandFor(lastUser);
  if (asked === 'commit-message') return commitMessageFor(lastUser);
  if (asked === 'translation') return translationFor(request.messages, lastUser);
  if (asked === 'conversation-summary') return conversationSummaryFor(lastUser);
  const rng = createRng(seed);
  const slots = slotsFor(request, rng);
  const openers = lastUser.endsWith('?') ? QUESTION_OPENERS : STATEMENT_OPENERS;
  const { min, max } = LENGTHS[request.model] ?? DEFAULT_LENGTH;
  const target = rng.int(min, max);

  // The key words of the ask without those that only name its shape (`python`, `table`, `three`).
  // Asked to explain, the reply is prose whatever the message looks like (a command, code).
  const intent: Intent = asked === 'explanation' ? { kind: 'prose' } : intentOf(lastUser);
  const words = keywords(lastUser, 8).filter((word) => !isShapeWord(word, intent));
  const shaped = structuredReply(intent, { rng, ask: lastUser, words, fallback: rng.shuffle(FALLBACK_WORDS), target, max });
  if (shaped !== undefined) return shaped;

  const opener = fill(rng.pick(openers), slots);
  const reference = slots.earlier ? fill(rng.pick(EARLIER_REFERENCES), slots) : '';
  const closer = fill(rng.pick(CLOSERS), slots);
  const sentences = rng.shuffle(BODY_SENTENCES).map((template) => fill(template, slots));

  const head = reference ? [opener, reference] : [opener];
  let reply = [...head, ...chooseBody(head, closer, sentences, target, max), closer].join(' ');
  // Long key words can leave no room: the reference to an earlier turn is the part to give up.
  if (reference && countTokens(reply) > max) {
    reply = [opener, ...chooseBody([opener], closer, sentences, target, max), closer].join(' ');
  }
  return reply;
}

/**
 * The text of choice `index` of `n`: the calls of the tools the request asks for; else the prose
 * reply (after tools ran, what they returned; with images, what they show first), or the JSON the
 * response format asks for. Choices differ when they can (a seed, or a temperature above 0), as a
 * model's samples do. `seenImages` describes the images of the last user message, when it has any.
 */
export function choiceText(request: ChatRequest, index: number, seenImages = ''): string | ToolCall[] {
  const base = replySeed(request);
  const seed = index > 0 && (request.seed !== undefined || request.temperature > 0) ? (base + index * 0x9e3779b1) >>> 0 : base;
  const lastUser = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const words = keywords(lastUser, 8);
  const tools = toolsToCall(request.tools, request.messages.at(-1)?.role ?? 'user', lastUser);
  if (tools.length > 0) {
    const rng = createRng(seed ^ 0x27d4eb2d);
    // "the weather in Paris" asks get_weather about Paris: the words of its own part of the
    // message, less the word that chose it.
    const chosenBy = new Set(tools.flatMap((tool) => subjectWords(tool.name)));
    const notChoosing = (list: string[]): string[] => list.filter((word) => !chosenBy.has(word.toLowerCase()));
    const about = notChoosing(words);
    const parts = askingParts(tools, lastUser);
    return tools.map((tool, at) => {
      const asking = parts[at] ?? { part: lastUser, whole: lastUser, rest: '' };
      const own = notChoosing(keywords(asking.part, 8));
      return makeCall(tool, rng, asking, own.length > 0 ? own : about.length > 0 ? about : words);
    });
  }
  const prose = toolResultsReply(request.messages) ?? withImages(seenImages, lastUser, () => generateReply(request, seed));
  return jsonReply(request.responseFormat, prose, words, createRng(seed ^ 0x5bd1e995)) ?? prose;
}

/** The description of the images first, then the reply to the words sent with them (none: the description alone). */
function withImages(seenImages: string, words: string, reply: () => string): string {
  if (seenImages === '') return reply();
  return words.trim() === '' ? seenImages : `${seenImages}\n\n${reply()}`;
}
