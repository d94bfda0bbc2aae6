/**
 * The models the emulator serves. Each endpoint accepts only its own kind: asking the chat
 * endpoint for the image model is a 404, as it would be for any unknown id.
 */

/** Chat model ids, the default first (docs/service-api.md, "Chat": `model` defaults to svc-pro). */
export const CHAT_MODELS = ['svc-pro', 'svc-mini'] as const;

/** A chat model id. */
export type ChatModel = (typeof CHAT_MODELS)[number];

/** The model used when a chat request names none. */
export const DEFAULT_CHAT_MODEL: ChatModel = 'svc-pro';

/**
 * Each chat model's context window in tokens, as its model object gives it (`context_length`):
 * the larger model a long one, the mini a smaller one. A model added with `--model` gets the
 * larger; a window set when starting the emulator replaces them all, and only then are requests
 * refused for length (core/chat/context.ts).
 */
export const CONTEXT_LENGTHS: Readonly<Record<ChatModel, number>> = { 'svc-pro': 131_072, 'svc-mini': 32_768 };

/** The context window of chat model `id`: the one the emulator was started with, else its own. */
export function contextLengthOf(id: string, configured: number | undefined): number {
  return configured ?? (isChatModel(id) ? CONTEXT_LENGTHS[id] : CONTEXT_LENGTHS['svc-pro']);
}

/** True when `id` is a chat model this emulator serves. */
export function isChatModel(id: string): id is ChatModel {
  return (CHAT_MODELS as readonly string[]).includes(id);
}

/**
 * Image model ids, the default first (docs/service-api.md, "Images": `model` defaults to
 * `svc-vision`). The image endpoint serves only these; a chat model id there is a 404 like any
 * unknown id.
 */
export const IMAGE_MODELS = ['svc-vision'] as const;

/** An image model id. */
export type ImageModel = (typeof IMAGE_MODELS)[number];

/** The model used when an image request names none. */
export const DEFAULT_IMAGE_MODEL: ImageModel = 'svc-vision';

/** True when `id` is an image model this emulator serves. */
export function isImageModel(id: string): id is ImageModel {
  return (IMAGE_MODELS as readonly string[]).includes(id);
}
