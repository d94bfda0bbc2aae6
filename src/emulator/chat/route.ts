/**
 * The chat completion endpoint, `POST /v1/chat/completions` (service-api.md 4.1).
 */
import { assertAllowed } from '../blacklist.js';
import { modelNotFound } from '../errors.js';
import { sendJson } from '../http.js';
import { isChatModel } from '../models.js';
import type { Route } from '../router.js';
import { buildCompletion, completionBody, completionChunks } from './completion.js';
import { generateReply } from './generate.js';
import { parseChatRequest } from './request.js';
import { streamEvents } from './stream.js';

/**
 * Validates the request (400), checks the model (404) and the blacklist (400), then answers with
 * one JSON completion or, with `stream: true`, an SSE stream of chunks.
 */
export const chatCompletionsRoute: Route = {
  method: 'POST',
  path: '/v1/chat/completions',
  async handle({ body, res, config, signal }) {
    const request = parseChatRequest(body);
    if (!isChatModel(request.model)) throw modelNotFound(request.model);
    assertAllowed(config.blacklist, request.messages.map((m) => m.content));
    const completion = buildCompletion(request, generateReply(request));
    if (request.stream) {
      await streamEvents(res, completionChunks(completion, request.includeUsage), config.delayMs, signal);
    } else {
      sendJson(res, 200, completionBody(completion));
    }
  },
};
