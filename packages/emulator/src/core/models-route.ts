/**
 * GET /v1/models and GET /v1/models/{id}, in OpenAI's shape: the chat and image models the
 * emulator serves, and any extra chat model given with `svc emulator --model NAME`, each chat
 * model with its `context_length`. A model id it does not serve is a 404 `model_not_found`, as
 * for a request that names one.
 */
import { modelNotFound } from './errors.js';
import { sendJson } from './http.js';
import { CHAT_MODELS, contextLengthOf, IMAGE_MODELS, isImageModel } from './models.js';
import type { EmulatorConfig, Route } from './router.js';

/** When the emulator's models came to be (a fixed time: the answers stay deterministic). */
const CREATED = 1_735_689_600; // 2025-01-01T00:00:00Z

export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  /** A chat model's context window in tokens, the field OpenRouter and others add to OpenAI's object. */
  context_length?: number;
}

/** Every model served, built-in first. */
export function servedModels(config: Pick<EmulatorConfig, 'extraModels' | 'contextLength'>): ModelObject[] {
  const ids = [...new Set([...CHAT_MODELS, ...IMAGE_MODELS, ...config.extraModels])];
  return ids.map((id) => ({
    id,
    object: 'model',
    created: CREATED,
    owned_by: 'svc-emulator',
    ...(isImageModel(id) ? {} : { context_length: contextLengthOf(id, config.contextLength) }),
  }));
}

export const listModelsRoute: Route = {
  method: 'GET',
  path: '/v1/models',
  api: true,
  body: 'none',
  handle({ res, config }) {
    sendJson(res, 200, { object: 'list', data: servedModels(config) });
  },
};

export const retrieveModelRoute: Route = {
  method: 'GET',
  path: /^\/v1\/models\/(.+)$/,
  api: true,
  body: 'none',
  handle({ res, config, params }) {
    const id = params[0] ?? '';
    const model = servedModels(config).find((candidate) => candidate.id === id);
    if (!model) throw modelNotFound(id);
    sendJson(res, 200, model);
  },
};
