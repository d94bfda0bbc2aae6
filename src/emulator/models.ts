/**
 * The models the emulator serves. Each endpoint accepts only its own kind: asking the chat
 * endpoint for the image model is a 404, as it would be for any unknown id.
 */

/** Chat model ids, the default first (service-api.md 4.1: `model` defaults to `svc-pro`). */
export const CHAT_MODELS = ['svc-pro', 'svc-mini'] as const;

/** A chat model id. */
export type ChatModel = (typeof CHAT_MODELS)[number];

/** The model used when a chat request names none. */
export const DEFAULT_CHAT_MODEL: ChatModel = 'svc-pro';

/** True when `id` is a chat model this emulator serves. */
export function isChatModel(id: string): id is ChatModel {
  return (CHAT_MODELS as readonly string[]).includes(id);
}
