/**
 * The chat completion endpoint, `POST /v1/chat/completions` (docs/service-api.md, "Chat"): the
 * protocol of core/chat/ (request, completion, stream) around the reply extras/text/ makes up,
 * with the OpenAI fields of extras/openai/.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { assertAllowed } from './core/blacklist.js';
import { buildCompletion, completionBody, completionChunks } from './core/chat/completion.js';
import { streamEvents } from './core/chat/stream.js';
import { modelNotFound } from './core/errors.js';
import { sendJson } from './core/http.js';
import { isChatModel } from './core/models.js';
import type { Route } from './core/router.js';
import { parseChatRequest } from './extras/openai/chat-request.js';
import { unsupportedForModel } from './extras/openai/client-fields.js';
import { logprobsOf } from './extras/openai/logprobs.js';
import { choiceText } from './extras/text/generate.js';

/**
 * Validates the request (400), checks the model (404) and the blacklist (400), then answers with
 * one JSON completion or, with `stream: true`, an SSE stream of chunks.
 */
export const chatCompletionsRoute: Route = {
  method: 'POST',
  path: '/v1/chat/completions',
  api: true,
  async handle({ body, res, config, signal }) {
    const request = parseChatRequest(body);
    if (!isChatModel(request.model) && !config.extraModels.includes(request.model)) throw modelNotFound(request.model);
    // A model named with --model stands for whatever the client asks for; the emulator's own are
    // neither reasoning nor search models.
    const refused = isChatModel(request.model) ? request.client.modelSpecific[0] : undefined;
    if (refused !== undefined) throw unsupportedForModel(refused);
    assertAllowed(config.blacklist, request.messages.map((m) => m.content));
    const replies = Array.from({ length: request.n }, (_, index) => choiceText(request, index));
    const completion = buildCompletion(request, replies, { logprobs: logprobsOf(request.logprobs), serviceTier: request.client.serviceTier });
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
