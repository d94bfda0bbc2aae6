/**
 * The chat completion endpoint, `POST /v1/chat/completions` (docs/service-api.md, "Chat"): the
 * protocol of core/chat/ (request, images, context window, completion, stream) around the reply
 * extras/text/ makes up, with the OpenAI fields of extras/openai/.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { assertAllowed } from './core/blacklist.js';
import { buildCompletion, completionBody, completionChunks } from './core/chat/completion.js';
import { checkContextWindow } from './core/chat/context.js';
import { countImageTokens, readImages, type ReadImages } from './core/chat/images.js';
import type { ChatMessage } from './core/chat/messages.js';
import { countPromptTokens } from './core/tokenizer.js';
import { streamEvents } from './core/chat/stream.js';
import { modelNotFound } from './core/errors.js';
import { sendJson } from './core/http.js';
import { isChatModel } from './core/models.js';
import type { Route } from './core/router.js';
import { parseChatRequest, type ChatRequest } from './extras/openai/chat-request.js';
import { unsupportedForModel } from './extras/openai/client-fields.js';
import { logprobsOf } from './extras/openai/logprobs.js';
import { toolsTokens } from './extras/openai/tools.js';
import { choiceText } from './extras/text/generate.js';
import { describeImages } from './extras/text/seen-images.js';

/** What the images of the last user message show, in words; empty when it has none. */
function lastImagesSeen(messages: readonly ChatMessage[], images: ReadImages): string {
  const last = messages.filter((message) => message.role === 'user').at(-1);
  const seen = (last?.images ?? []).map((input) => {
    const read = images.get(input);
    return read === undefined ? { url: input.url } : { read };
  });
  return describeImages(seen);
}

/**
 * The request with the room its reply has: with a context window (`--context`), a request that
 * does not fit is refused, and a reply is cut where the window ends (`finish_reason: "length"`).
 */
function withinWindow(request: ChatRequest, promptTokens: { messages: number; functions: number }, window: number | undefined): ChatRequest {
  if (window === undefined) return request;
  const room = checkContextWindow(window, promptTokens, request.maxTokens);
  return { ...request, maxTokens: Math.min(request.maxTokens ?? room, room) };
}

/**
 * Validates the request (400), checks the model (404) and the blacklist (400), reads its images
 * (400 for one that is not an image) and, with a context window, checks that it fits (400), then
 * answers with one JSON completion or, with `stream: true`, an SSE stream of chunks.
 */
export const chatCompletionsRoute: Route = {
  method: 'POST',
  path: '/v1/chat/completions',
  api: true,
  async handle({ body, res, config, signal }) {
    const asked = parseChatRequest(body, { textOnly: config.textOnly });
    if (!isChatModel(asked.model) && !config.extraModels.includes(asked.model)) throw modelNotFound(asked.model);
    // A model named with --model stands for whatever the client asks for; the emulator's own are
    // neither reasoning nor search models.
    const refused = isChatModel(asked.model) ? asked.client.modelSpecific[0] : undefined;
    if (refused !== undefined) throw unsupportedForModel(refused);
    assertAllowed(config.blacklist, asked.messages.map((m) => m.content));
    const images = await readImages(asked.messages);
    const prompt = { messages: countPromptTokens(asked.messages) + countImageTokens(images), functions: toolsTokens(asked.tools) };
    const request = withinWindow(asked, prompt, config.contextLength);
    const seen = lastImagesSeen(request.messages, images);
    const replies = Array.from({ length: request.n }, (_, index) => choiceText(request, index, seen));
    const completion = buildCompletion(request, replies, {
      logprobs: logprobsOf(request.logprobs),
      serviceTier: request.client.serviceTier,
      promptTokens: prompt.messages + prompt.functions,
    });
    const chunks = completionChunks(completion, request.includeUsage);
    if (request.stream) {
      await streamEvents(res, chunks, config.delayMs, signal, config.faults.cutAfter);
      return;
    }
    // --delay paces generation, not only its display: a whole answer comes when its stream would
    // have ended (a delay before each chunk and [DONE]), so a batch rehearsed here takes as long.
    if (config.delayMs > 0) {
      try {
        await sleep(config.delayMs * chunks.length, undefined, { signal });
      } catch {
        return; // the client left, or the emulator is closing: nothing to answer
      }
    }
    sendJson(res, 200, completionBody(completion));
  },
};
