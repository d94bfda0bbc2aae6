/**
 * The models a service has, asked once and kept per base URL (storage/models-cache.ts), and what
 * follows from them: whether the key is good (`svc auth`), which chat model to send when the
 * user named none, and what to say when the service refuses that model.
 *
 * With no model named (no -m, SVC_MODEL, stored setting, role or conversation model), a service
 * that lists exactly one model gets that one: llama-server serves one model and lists it, and a
 * real OpenAI-compatible service refuses `svc-pro`. A service that lists `svc-pro`, lists several,
 * or has no model list gets the default, as the service API says; if it refuses it, the error
 * says to set a model and lists what the service has.
 */
import type { ApiClient } from '../api/client.js';
import { listModels, NoModelListError, type ModelList } from '../api/models.js';
import { ApiError, AuthError, InterruptedError, NetworkError, RejectedError } from '../core/errors.js';
import { cachedModels, keepModelIds } from '../storage/models-cache.js';
import { isContextExceeded } from '../api/context-exceeded.js';

export type AskedModels = { kind: 'listed'; list: ModelList } | { kind: 'none'; error: NoModelListError };

/**
 * Ask the service for its models (api/models.ts) and keep the answer for its base URL in the
 * cache folder `cache`: the ids, or that it has no model list. Other failures are thrown, unkept.
 */
export async function askModels(client: ApiClient, cache: string, signal?: AbortSignal): Promise<AskedModels> {
  try {
    const list = await listModels(client, signal);
    keepModelIds(cache, client.baseUrl, list.rows.map((row) => row.id));
    return { kind: 'listed', list };
  } catch (error) {
    if (!(error instanceof NoModelListError)) throw error;
    keepModelIds(cache, client.baseUrl, null);
    return { kind: 'none', error };
  }
}

export type KeyCheck =
  | { kind: 'accepted' }
  /** 401 or 403: the service's own error, to be said. */
  | { kind: 'refused'; error: AuthError }
  /** The service has no model list (404, 405): the key could not be tried. */
  | { kind: 'not-checked'; status: number };

/**
 * Is the client's key good? Asked with GET /v1/models (askModels, which keeps the list for
 * completion and the choice of a model): the one request every OpenAI-compatible service answers
 * for a valid key without doing or costing anything. Any other failure (cannot connect, 5xx) is
 * thrown.
 */
export async function checkKey(client: ApiClient, cache: string, signal?: AbortSignal): Promise<KeyCheck> {
  try {
    const asked = await askModels(client, cache, signal);
    return asked.kind === 'listed' ? { kind: 'accepted' } : { kind: 'not-checked', status: asked.error.status };
  } catch (error) {
    if (error instanceof AuthError) return { kind: 'refused', error };
    throw error;
  }
}

/** The chat model setting as resolved: its value and where it came from (flag, environment, stored, default). */
export interface ModelSetting {
  value: string;
  source: string;
}

/**
 * The chat model someone named, by one precedence for every command that chats (chat, the
 * session, batch): `-m` wins; then the role chosen for this run (so it beats the environment and
 * the stored setting); then the conversation's own model, when one is resumed; then the setting
 * from the environment or the profile. Undefined when nobody named one: the default then applies,
 * or the service's own list settles it (defaultChatModel).
 */
export function namedChatModel(setting: ModelSetting, roleModel?: string, conversationModel?: string): string | undefined {
  if (setting.source === 'flag') return setting.value;
  return roleModel ?? conversationModel ?? (setting.source === 'default' ? undefined : setting.value);
}

/** Where the default model is looked up: the base URL, svc's cache folder, the default itself. */
export interface DefaultModelPlace {
  baseUrl: string;
  cache: string;
  /** The model svc sends when the service does not settle it (the setting's default, svc-pro). */
  fallback: string;
}

/**
 * The chat model to send when the user named none: the one model the service lists, else the
 * fallback. The list is read from the cache; asked for (with `client`) only when this base URL
 * was never asked, so each service is asked once. Without a client (a dry run) nothing is asked.
 * A list that cannot be had is no reason to fail: the chat request then says what is wrong, except
 * that a service that cannot be reached, or Ctrl-C, ends it here.
 */
export async function defaultChatModel(place: DefaultModelPlace, client: ApiClient | undefined, signal?: AbortSignal): Promise<string> {
  const ids = await defaultModelIds(place, client, signal);
  return ids && ids.length === 1 ? ids[0]! : place.fallback;
}

/** Whether this base URL's models were asked before (a list, or that it has none), so no request is needed. */
export function modelsKnown(place: DefaultModelPlace): boolean {
  return cachedModels(place.cache, place.baseUrl) !== undefined;
}

async function defaultModelIds(place: DefaultModelPlace, client: ApiClient | undefined, signal: AbortSignal | undefined): Promise<string[] | null | undefined> {
  let ids = cachedModels(place.cache, place.baseUrl)?.ids;
  if (ids === undefined && client) {
    try {
      const asked = await askModels(client, place.cache, signal);
      ids = asked.kind === 'listed' ? asked.list.rows.map((row) => row.id) : null;
    } catch (error) {
      if (error instanceof NetworkError || error instanceof InterruptedError) throw error;
    }
  }
  return ids;
}

/**
 * The service turned the request down because of its model (unknown, not allowed), not because
 * of what it says: a 404 from the chat endpoint, or a 4xx whose message or code names the model
 * (but not a request too long for the model's context window).
 */
export function refusesModel(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return false;
  if (error.status === 401 || error.status === 429) return false;
  // "This model's maximum context length is …" names the model, and is about the request's length.
  if (isContextExceeded(error.status, error.serviceMessage, error.code)) return false;
  return error.status === 404 || /model/i.test(`${error.serviceMessage ?? ''} ${error.code ?? ''}`);
}

/** Ids named in one hint at most: a big service lists a hundred. */
const LISTED_IDS = 12;

function shortList(ids: string[]): string {
  const more = ids.length - LISTED_IDS;
  return more > 0 ? `${ids.slice(0, LISTED_IDS).join(', ')} and ${more} more` : ids.join(', ');
}

/**
 * A refusal of the model svc chose itself, none being set: the service's own words stay the
 * message, and the hint says that no model is set, how to set one, and which ones the service has
 * (asked again, so the list is its current one; the kept one if that fails). A refusal that is not
 * about the model (a 404 of a wrong base URL keeps its base-URL hint), or any other error, is
 * returned as it is.
 */
export async function unsetModelError(error: unknown, model: string, place: DefaultModelPlace, client: ApiClient, signal?: AbortSignal): Promise<unknown> {
  if (!refusesModel(error) || !namesTheModel(error as ApiError)) return error;
  const api = error as ApiError;
  let ids = cachedModels(place.cache, place.baseUrl)?.ids ?? undefined;
  try {
    const asked = await askModels(client, place.cache, signal);
    ids = asked.kind === 'listed' ? asked.list.rows.map((row) => row.id) : undefined;
  } catch {
    // The list could not be had again: the one kept is shown, if any.
  }
  const listed = ids === undefined ? '' : ids.length === 0 ? '; the service lists no models' : `; the service lists ${shortList(ids)}`;
  const hint = `no chat model is set, so svc sent ${model}${listed}: choose one with -m ID, SVC_MODEL or \`svc config set model ID\``;
  const details = { status: api.status, serviceMessage: api.serviceMessage, requestId: api.requestId, code: api.code, body: api.body };
  return api instanceof AuthError ? new AuthError(api.message, details, { hint }) : new RejectedError(api.message, details, { hint });
}

/** The refusal names a model (OpenAI's `model_not_found`, "The model 'x' does not exist"), not a URL. */
function namesTheModel(error: ApiError): boolean {
  return /model/i.test(`${error.serviceMessage ?? ''} ${error.code ?? ''}`);
}
