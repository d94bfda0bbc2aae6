/**
 * Whether a chat's replies are rendered as Markdown, and the renderer that draws them. Rendered
 * only when stdout is a terminal and the render setting (--raw, SVC_RENDER, `svc config set
 * render`) is `auto`: in a pipe or a file the reply is the service's text, byte for byte.
 */
import type { ResolvedSettings } from '../../factory.js';
import type { IO } from '../../terminal/io.js';
import type { RenderTarget } from '../../render/terminal-renderer.js';
import type { OpenRenderer } from './reply-writer.js';

/**
 * True when replies are rendered. The setting is read only for a terminal, so a pipe's output
 * never depends on it (and a mistyped SVC_RENDER does not stop a script). TERM=dumb (Emacs'
 * shell, some CI consoles) understands no escape sequence, styles or line redraws: text as sent.
 */
export function rendersReplies(io: IO, settings: Pick<ResolvedSettings, 'render'>): boolean {
  return io.stdoutIsTTY && !io.plain && settings.render.value === 'auto';
}

/**
 * Start loading the renderer (and highlight.js) for stdout. Called as the request goes out, so
 * the load runs while the service thinks and adds nothing before the first token.
 */
export async function loadReplyRenderer(io: IO): Promise<OpenRenderer> {
  const { terminalRenderer } = await import('../../render/terminal-renderer.js');
  return (write) => terminalRenderer({ stream: io.stdout as RenderTarget['stream'], env: io.env, write });
}
