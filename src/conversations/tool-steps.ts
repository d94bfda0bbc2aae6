/**
 * A turn's tool steps in the views that show a conversation (`svc sessions show`, /history, the
 * Markdown and HTML exports): each call as its tool and arguments, each result with what it was
 * (an error, declined). The text is as saved: the views neutralise or escape it themselves.
 */
import type { ToolCallRecord } from './model.js';

/** The arguments as indented JSON when they are JSON, else as the model sent them. */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The tool a call was for: `fs.read_file`, or the function name when it was none on offer. */
export function callName(call: ToolCallRecord): string {
  return call.tool ?? call.name;
}

/** What became of a call, for a heading: `declined`, `error`, or nothing for a result. */
export function resultKind(call: ToolCallRecord): string | undefined {
  if (call.declined) return 'declined';
  return call.isError ? 'error' : undefined;
}
