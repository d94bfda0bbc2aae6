/** Feeding the streaming renderer in chosen pieces and reading the screen it leaves. */
import { createHighlighter, type Highlighter } from '../../src/render/highlight.js';
import { createStreamingRenderer } from '../../src/render/streaming-renderer.js';
import { TerminalScreen } from './terminal-screen.js';

export interface RenderOptions {
  width?: number;
  color?: boolean;
  hyperlinks?: boolean;
  highlighter?: Highlighter | undefined;
  /** Called after each piece with the screen so far. */
  afterPiece?: (screen: TerminalScreen) => void;
}

let shared: Highlighter | undefined;
/** One highlighter for all tests (registering the languages once). */
export function highlighter(): Highlighter {
  return (shared ??= createHighlighter());
}

/** Render `pieces` in order, then end; returns the screen and every byte written. */
export function renderPieces(pieces: readonly string[], options: RenderOptions = {}): { screen: TerminalScreen; bytes: string; writes: number } {
  const width = options.width ?? 40;
  const screen = new TerminalScreen(width);
  let bytes = '';
  let writes = 0;
  const renderer = createStreamingRenderer({
    columns: () => width,
    color: options.color ?? true,
    hyperlinks: options.hyperlinks ?? false,
    highlighter: 'highlighter' in options ? options.highlighter : highlighter(),
    write: (text) => {
      writes++;
      bytes += text;
      screen.write(text);
    },
  });
  for (const piece of pieces) {
    renderer.push(piece);
    options.afterPiece?.(screen);
  }
  renderer.end();
  return { screen, bytes, writes };
}

/** Render a whole document in one piece. */
export function renderWhole(markdown: string, options: RenderOptions = {}): TerminalScreen {
  return renderPieces([markdown], options).screen;
}

/** Render a document one character (code point) at a time. */
export function renderByChar(markdown: string, options: RenderOptions = {}): TerminalScreen {
  return renderPieces(Array.from(markdown), options).screen;
}
