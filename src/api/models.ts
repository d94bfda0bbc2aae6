/**
 * GET /v1/models, the one request that asks a service which models it has: read whole (within
 * the chat answer's bound), refused when a page came in its place, and turned into rows. What
 * the answer is used for (a table, the choice of a model, checking a key) is decided above.
 */
import { htmlPageError, isHtmlAnswer, readUpTo } from './answer-body.js';
import type { ApiClient } from './client.js';
import { MAX_CHAT_ANSWER_BYTES } from './limits.js';
import { parseServiceJson } from './service-message.js';
import { ApiError, MalformedResponseError, RejectedError } from '../core/errors.js';
import { isObject } from '../core/json.js';

export interface ModelRow {
  id: string;
  ownedBy: string | undefined;
  created: number | undefined;
}

export interface ModelList {
  /** The service's answer as it came (for --json). */
  answer: unknown;
  rows: ModelRow[];
}

/** The service has no GET /v1/models (it answered 404 or 405): exit 4, said in one line. */
export class NoModelListError extends RejectedError {}

function rowsOf(answer: unknown): ModelRow[] {
  const data = isObject(answer) ? answer.data : undefined;
  if (!Array.isArray(data)) throw new MalformedResponseError('the service answered GET /v1/models without a `data` list');
  return data.flatMap((item: unknown) => {
    if (!isObject(item) || typeof item.id !== 'string') return [];
    return [{ id: item.id, ownedBy: typeof item.owned_by === 'string' ? item.owned_by : undefined, created: typeof item.created === 'number' ? item.created : undefined }];
  });
}

/**
 * The models the service at the client's base URL lists. Throws NoModelListError for a service
 * without the endpoint, and the client's errors otherwise (a refused key is an AuthError).
 */
export async function listModels(client: ApiClient, signal?: AbortSignal): Promise<ModelList> {
  let text: string;
  try {
    const response = await client.getEndpoint('models', signal);
    text = (await readUpTo(response.body, MAX_CHAT_ANSWER_BYTES)).text;
    // A proxy's or captive portal's page in place of the list: said as chat and image say it.
    if (isHtmlAnswer(text.trimStart(), response.contentType)) throw htmlPageError(text, client.baseUrlOrigin);
  } catch (error) {
    // A server with no model list: one line that says so, not the base-URL hint of a 404.
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) {
      throw new NoModelListError(`the service at ${client.baseUrl} offers no model list (GET /v1/models)`, {
        status: error.status,
        serviceMessage: error.serviceMessage,
        requestId: error.requestId,
      });
    }
    throw error;
  }
  const answer = parseServiceJson(text, 'a model list');
  return { answer, rows: rowsOf(answer) };
}
