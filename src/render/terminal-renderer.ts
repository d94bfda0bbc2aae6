/**
 * The streaming renderer as svc sets it up for a terminal: colour and hyperlinks as the
 * environment asks, code highlighted, and the width read from the terminal at every line (so a
 * resize, SIGWINCH, applies from the next line on). `svc render` and `svc chat` import this one
 * module, lazily and only when their output is a terminal: it is the chunk that brings the
 * renderer and highlight.js, and a pipe never loads it.
 */
import { colorWanted } from '../terminal/io.js';
import { createHighlighter } from './highlight.js';
import { hyperlinksWanted } from './hyperlinks.js';
import { createStreamingRenderer, type StreamingRenderer } from './streaming-renderer.js';

export type { StreamingRenderer } from './streaming-renderer.js';

/** What the renderer needs of the terminal it draws on. */
export interface RenderTarget {
  /** The terminal stream: its `columns` is read again at the start of every line. */
  stream: { columns?: number | undefined };
  env: Record<string, string | undefined>;
  /** Where the rendered bytes go (called at most once per push). */
  write: (bytes: string) => void;
}

/** Columns when a terminal does not say (as commander and most CLIs assume). */
const DEFAULT_COLUMNS = 80;

export function terminalRenderer(target: RenderTarget): StreamingRenderer {
  return createStreamingRenderer({
    columns: () => target.stream.columns ?? DEFAULT_COLUMNS,
    color: colorWanted(target.env, true),
    hyperlinks: hyperlinksWanted(target.env, true),
    highlighter: createHighlighter(),
    write: target.write,
  });
}
