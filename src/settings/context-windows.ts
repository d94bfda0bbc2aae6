/**
 * The context window of one model, as the user set it: `svc config set contextWindow.MODEL N`,
 * tokens, beating the `contextWindow` setting (every model of the profile) for that model. Kept
 * in config.json as one `contextWindows` object keyed by model id, as prices are (written whole:
 * model ids hold dots, `gpt-4.1`, which conf would read as nested keys; and `contextWindow`
 * itself holds the number for every model).
 */
import { parseModelId } from '../core/parse-values.js';
import { parseWindowTokens } from './definitions.js';

/** The key `svc config` takes (`contextWindow.MODEL`), and the object config.json keeps them in. */
export const CONTEXT_WINDOW_PREFIX = 'contextWindow.';
export const CONTEXT_WINDOWS_KEY = 'contextWindows';

/** The model of a `contextWindow.MODEL` key, or undefined for any other key. */
export function contextWindowKeyModel(key: string): string | undefined {
  if (!key.startsWith(CONTEXT_WINDOW_PREFIX)) return undefined;
  return parseModelId(key.slice(CONTEXT_WINDOW_PREFIX.length), key);
}

/** The windows of a stored `contextWindows` object; an entry that cannot be read is left out (and named). */
export function readContextWindows(stored: unknown): { windows: Map<string, number>; broken: string[] } {
  const windows = new Map<string, number>();
  const broken: string[] = [];
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return { windows, broken: stored === undefined ? [] : [CONTEXT_WINDOWS_KEY] };
  for (const [model, value] of Object.entries(stored)) {
    try {
      if (typeof value !== 'number' && typeof value !== 'string') throw new Error('not a number');
      windows.set(model, parseWindowTokens(String(value), `${CONTEXT_WINDOW_PREFIX}${model}`));
    } catch {
      broken.push(`${CONTEXT_WINDOW_PREFIX}${model}`);
    }
  }
  return { windows, broken };
}
