/**
 * A tool's result as the model gets it back: text, bounded. MCP results are lists of parts
 * (text, image, audio, resource, resource link); a chat model takes a `tool` message of text, so
 * text parts are joined and the others described in words ("[image image/png, 1.2 KiB]"), a text
 * resource with its text. The text is untrusted: it goes to the model as data, and is neutralised
 * by whoever shows it on a terminal.
 */
import { formatBytes } from '../core/byte-size.js';
import { isObject } from '../core/json.js';

/** The most a result gives the model, in UTF-8 bytes, its note included. */
export const MODEL_TEXT_LIMIT = 64 * 1024;

/** The summary's first line is cut to this many characters. */
const SUMMARY_LINE = 80;

export interface ToolCallResult {
  /** The text of the `tool` message for the model, at most MODEL_TEXT_LIMIT bytes. */
  content: string;
  /** The tool (or svc, for a call that could not be made) reports a failure: the model is told so by the text. */
  isError: boolean;
  /** For a dim line on the terminal: size and first line ("1.2 KiB, 40 lines: total 12"). Untrusted: neutralise it. */
  summary: string;
  /** The text was cut to the limit (the content ends with a note that says so). */
  truncated: boolean;
  /** The size of the whole text, in UTF-8 bytes, before any cut. */
  bytes: number;
}

/** The size of what base64 `data` decodes to. */
function decodedSize(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

const described = (words: Array<string | undefined>): string => `[${words.filter((word) => word !== undefined && word !== '').join(', ')}]`;

/** One part of a result, as text. */
function partText(part: unknown): string {
  if (!isObject(part)) return '[a part svc cannot read]';
  const mime = typeof part.mimeType === 'string' ? part.mimeType : undefined;
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return described([`${part.type} ${mime ?? ''}`.trim(), formatBytes(decodedSize(part.data))]);
    case 'resource': {
      const resource = isObject(part.resource) ? part.resource : {};
      const uri = typeof resource.uri === 'string' ? resource.uri : undefined;
      const type = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
      if (typeof resource.text === 'string') return `${described([`resource ${uri ?? ''}`.trim(), type])}\n${resource.text}`;
      return described([`resource ${uri ?? ''}`.trim(), type, formatBytes(decodedSize(resource.blob))]);
    }
    case 'resource_link':
      return described([`resource link ${typeof part.name === 'string' ? part.name : ''}`.trim(), typeof part.uri === 'string' ? part.uri : undefined, mime]);
    default:
      return described([`${typeof part.type === 'string' ? part.type : 'unknown'} part`]);
  }
}

/** The whole text of a result: its parts, or its structured content when it has no parts. */
export function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts = Array.isArray(result.content) ? result.content : [];
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.map(partText).join('\n');
}

/** `text` cut to at most `limit` UTF-8 bytes, at a character's end. */
function cutToBytes(text: string, limit: number): string {
  const room = new Uint8Array(limit);
  const { read } = new TextEncoder().encodeInto(text, room);
  return text.slice(0, read);
}

/** "1.2 KiB, 40 lines: first line" (or "empty"). */
function summarise(text: string, bytes: number): string {
  if (text.trim() === '') return 'empty';
  const lines = text.replace(/\n+$/, '').split('\n');
  const first = lines.find((line) => line.trim() !== '')!.trim();
  const shown = first.length > SUMMARY_LINE ? `${first.slice(0, SUMMARY_LINE - 1)}…` : first;
  return `${formatBytes(bytes)}${lines.length > 1 ? `, ${lines.length} lines` : ''}: ${shown}`;
}

/** `text` as the model gets it: within `limit` bytes, with a note when cut. */
export function boundedResult(text: string, isError: boolean, limit = MODEL_TEXT_LIMIT): ToolCallResult {
  const bytes = Buffer.byteLength(text);
  const summary = summarise(text, bytes);
  if (bytes <= limit) return { content: text === '' ? '(no output)' : text, isError, summary, truncated: false, bytes };
  const note = `\n[output cut: the tool returned ${formatBytes(bytes)}; only the first ${formatBytes(limit)} are shown]`;
  return { content: `${cutToBytes(text, limit - Buffer.byteLength(note))}${note}`, isError, summary: `${summary} (cut for the model)`, truncated: true, bytes };
}

/** A tool's result for the model. */
export function modelResult(result: { content?: unknown; structuredContent?: unknown; isError?: unknown }, limit = MODEL_TEXT_LIMIT): ToolCallResult {
  return boundedResult(resultText(result), result.isError === true, limit);
}

/** A call svc could not make (no such tool, arguments that are not JSON, a server gone), told to the model as an error result. */
export function errorResult(message: string): ToolCallResult {
  return boundedResult(message, true);
}
