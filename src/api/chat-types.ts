/** The chat endpoint's shapes (docs/service-api.md, "Chat"). */
import type { ContentPart } from './content-parts.js';

export type { ContentPart, ImagePart, TextPart } from './content-parts.js';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  /** Parts only for a user message with images (content-parts.ts); text otherwise. */
  content: string | ContentPart[];
}

/** A function call the model asked for, as OpenAI shapes it (`arguments` is JSON text). */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The assistant's turn that called tools: its text (null when none) and its calls. */
export interface ToolCallMessage {
  role: 'assistant';
  content: string | null;
  tool_calls: ToolCall[];
}

/** A tool's result, answering one call by its id. */
export interface ToolResultMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** Any message of a request: the conversation's text, and the calls and results of a tool loop. */
export type RequestMessage = ChatMessage | ToolCallMessage | ToolResultMessage;

/** A function offered to the model (OpenAI's `tools` array): its name, what it does, its parameters' JSON Schema. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The request body. Optional fields are left out, never sent as null. */
export interface ChatRequest {
  model: string;
  messages: RequestMessage[];
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
  /** The functions the model may call (svc chat --tools); absent when none are offered. */
  tools?: ChatTool[];
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
