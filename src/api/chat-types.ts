/** The chat endpoint's shapes (docs/service-api.md, "Chat"). */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The request body. Optional fields are left out, never sent as null. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stream?: boolean;
  stop?: string | string[];
  presence_penalty?: number;
  frequency_penalty?: number;
  user?: string;
  /** OpenAI convention, not in the service's own document (docs/service-api.md): asks for a final chunk with usage. */
  stream_options?: { include_usage: boolean };
}

/**
 * The non-streaming answer, and what svc assembles from a stream (`--json`). The fields named
 * here are always there; whatever else the service sent (`system_fingerprint`, `logprobs`,
 * `refusal`, usage details...) is kept beside them.
 */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string; [field: string]: unknown };
    finish_reason: string | null;
    [field: string]: unknown;
  }>;
  usage?: Usage & { [field: string]: unknown };
  [field: string]: unknown;
}
