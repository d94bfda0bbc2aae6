/**
 * The streaming renderer as svc sets it up for a terminal: colour and hyperlinks as the
 * environment asks, code highlighted, and the width read from the terminal at every row; on a
 * resize (SIGWINCH) the row being written is drawn again at once at the new width, as the
 * terminal in use re-wraps its screen. `svc render` and `svc chat` import this one module,
 * lazily and only when their output is a terminal: it is the chunk that brings the renderer and
 * highlight.js, and a pipe never loads it.
 */
import { colorWanted } from '../terminal/io.js';
import { createHighlighter } from './highlight.js';
import { hyperlinksWanted } from './hyperlinks.js';
import { createStreamingRenderer, type StreamingRenderer } from './streaming-renderer.js';

export type { StreamingRenderer } from './streaming-renderer.js';

/** What the renderer needs of the terminal it draws on. */
export interface RenderTarget {
  /**
   * The terminal stream: its `columns` is read again at every row; its 'resize' event (a tty
   * stream's, on SIGWINCH) redraws the row being written without waiting for more text.
   */
  stream: { columns?: number | undefined; on?: (event: 'resize', listener: () => void) => unknown; off?: (event: 'resize', listener: () => void) => unknown };
  env: Record<string, string | undefined>;
  /** Where the rendered bytes go (called at most once per push, and once per resize). */
  write: (bytes: string) => void;
}

/** Columns when a terminal does not say (as commander and most CLIs assume). */
const DEFAULT_COLUMNS = 80;

/**
 * Whether the terminal re-wraps the line under the cursor to its new width when resized, the
 * cursor staying at its end, as far as the environment tells. tmux does, whatever terminal shows
 * it; so do kitty, iTerm2, VTE terminals (GNOME Terminal, Tilix, …) and Windows Terminal. GNU
 * screen, xterm (which a VTE terminal may have started, its variables inherited) and any
 * terminal not known are taken not to: then only the cursor's own row is redrawn, which cannot
 * touch a row above it (the worst that guess does in a terminal that does re-wrap is show part of
 * a row twice). Screen is asked first: inside tmux or tmux inside it, the safe guess.
 */
export function reflowsOnResize(env: Record<string, string | undefined>): boolean {
  if (env.STY) return false;
  if (env.TMUX) return true;
  if (env.XTERM_VERSION) return false;
  return (
    env.TERM === 'xterm-kitty' ||
    Boolean(env.KITTY_WINDOW_ID) ||
    env.TERM_PROGRAM === 'iTerm.app' ||
    env.LC_TERMINAL === 'iTerm2' ||
    Boolean(env.VTE_VERSION) ||
    Boolean(env.WT_SESSION)
  );
}

export function terminalRenderer(target: RenderTarget): StreamingRenderer {
  const { stream } = target;
  const renderer = createStreamingRenderer({
    columns: () => stream.columns ?? DEFAULT_COLUMNS,
    reflows: reflowsOnResize(target.env),
    color: colorWanted(target.env, true),
    hyperlinks: hyperlinksWanted(target.env, true),
    highlighter: createHighlighter(),
    write: target.write,
  });
  const refresh = (): void => renderer.refresh();
  stream.on?.('resize', refresh);
  return {
    push: (text) => renderer.push(text),
    refresh,
    end() {
      stream.off?.('resize', refresh);
      renderer.end();
    },
  };
}
