/**
 * Is the key good? Asked of the service with GET /v1/models (chat/model-choice.ts askModels, which
 * keeps the list it gets for completion and the choice of a model): the one request every
 * OpenAI-compatible service answers for a valid key without doing or costing anything.
 */
import type { ApiClient } from '../../api/client.js';
import { askModels } from '../../chat/model-choice.js';
import { AuthError } from '../../core/errors.js';

export type KeyCheck =
  | { kind: 'accepted' }
  /** 401 or 403: the service's own error, to be said. */
  | { kind: 'refused'; error: AuthError }
  /** The service has no model list (404, 405): the key could not be tried. */
  | { kind: 'not-checked'; status: number };

/** What the service says of the client's key. Any other failure (cannot connect, 5xx) is thrown. */
export async function checkKey(client: ApiClient, cache: string, signal?: AbortSignal): Promise<KeyCheck> {
  try {
    const asked = await askModels(client, cache, signal);
    return asked.kind === 'listed' ? { kind: 'accepted' } : { kind: 'not-checked', status: asked.error.status };
  } catch (error) {
    if (error instanceof AuthError) return { kind: 'refused', error };
    throw error;
  }
}
