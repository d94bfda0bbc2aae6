/**
 * `svc render`: Markdown on stdin rendered for the terminal as it arrives (src/render): stdin →
 * the streaming renderer → stdout on a terminal; stdin → stdout unchanged anywhere else (a pipe,
 * a file), so it can sit in any pipeline.
 */
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { addAbortSignal, type Readable, type Writable } from 'node:stream';
import { Command } from '@commander-js/extra-typings';
import { InterruptedError, SvcError, UsageError } from '../../core/errors.js';
import type { IO } from '../../terminal/io.js';
import type { RenderTarget } from '../../render/terminal-renderer.js';
import { asBytes } from '../../terminal/streams.js';
import type { CommandContext } from '../context.js';

export function renderCommand(context: CommandContext) {
  return new Command('render')
    .summary('render Markdown from stdin for the terminal, as it arrives')
    .description(
      'Show Markdown from standard input rendered as it arrives: headings, emphasis,\n' +
        'lists, quotes, links, aligned tables and highlighted code, with words wrapped\n' +
        'to the terminal. When stdout is not a terminal, the input is copied to it\n' +
        'unchanged, byte for byte.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc chat "compare three sorting algorithms in a table" | svc render\n' +
        '  $ some-llm-tool "explain closures" | svc render\n  $ svc render < notes.md\n\n' +
        'Environment:\n  NO_COLOR   no colours (bold, italic and underline stay);  FORCE_COLOR   colours anyway\n' +
        '  FORCE_HYPERLINK=1|0   clickable links (OSC 8) on or off, whatever the terminal',
    )
    .action(() => runRender(context.factory.io, context.signal));
}

export async function runRender(io: IO, signal: AbortSignal): Promise<void> {
  if (io.stdinKind === 'tty') {
    throw new UsageError('svc render reads Markdown from its standard input, which is the terminal here', {
      hint: 'pipe text into it (some-tool | svc render) or give it a file (svc render < notes.md)',
    });
  }
  if (io.stdinKind === 'other') return; // stdin closed or a device such as /dev/null: nothing to render
  const out = new StdoutBytes(io.stdout);
  try {
    // TERM=dumb understands no escape sequences: the text as it came, as chat does there.
    if (io.stdoutIsTTY && io.env.TERM !== 'dumb') await render(io, signal, out);
    else await copy(io.stdin, signal, out);
  } catch (error) {
    if (signal.aborted) throw new InterruptedError();
    throw error;
  } finally {
    out.dispose();
  }
  out.check();
}

function input(stdin: Readable, signal: AbortSignal): AsyncIterable<unknown> {
  return addAbortSignal(signal, stdin);
}

async function copy(stdin: Readable, signal: AbortSignal, out: StdoutBytes): Promise<void> {
  for await (const piece of input(stdin, signal)) {
    if (!(await out.write(asBytes(piece)))) return;
  }
}

async function render(io: IO, signal: AbortSignal, out: StdoutBytes): Promise<void> {
  // Loaded only here: a pipe never pays for the renderer or the highlighter.
  const { terminalRenderer } = await import('../../render/terminal-renderer.js');
  const renderer = terminalRenderer({ stream: io.stdout as RenderTarget['stream'], env: io.env, write: (bytes) => out.queue(bytes) });
  const decoder = new StringDecoder('utf8');
  try {
    for await (const piece of input(io.stdin, signal)) {
      renderer.push(decoder.write(asBytes(piece)));
      if (!(await out.drained())) return;
    }
    renderer.push(decoder.end());
  } finally {
    // Also on Ctrl-C: the last line is finished and the terminal's style put back.
    renderer.end();
  }
  await out.drained();
}

/**
 * Bytes → stdout with backpressure; a reader that went away (`| head -1`) ends the copy quietly,
 * any other write error is reported once the command stops.
 */
class StdoutBytes {
  readonly #stdout: Writable;
  #closed = false;
  #failure: Error | undefined;

  constructor(stdout: Writable) {
    this.#stdout = stdout;
    stdout.on('error', this.#onError);
  }

  #onError = (error: NodeJS.ErrnoException): void => {
    this.#closed = true;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') this.#failure ??= error;
  };

  /** Write without waiting (the renderer's output); see {@link drained}. */
  queue(bytes: string | Buffer): void {
    if (!this.#closed) this.#stdout.write(bytes);
  }

  /** Write and wait for room; false once stdout is closed. */
  async write(bytes: Buffer): Promise<boolean> {
    this.queue(bytes);
    return this.drained();
  }

  /** Wait until stdout can take more; false once it is closed. */
  async drained(): Promise<boolean> {
    if (!this.#closed && this.#stdout.writableNeedDrain) {
      await Promise.race([once(this.#stdout, 'drain'), once(this.#stdout, 'close')]).catch(() => {});
    }
    return !this.#closed;
  }

  /** Throw if the output could not be written (a full disk, not a closed pipe). */
  check(): void {
    if (this.#failure) throw new SvcError(`cannot write the output: ${this.#failure.message}`);
  }

  dispose(): void {
    this.#stdout.off('error', this.#onError);
  }
}
