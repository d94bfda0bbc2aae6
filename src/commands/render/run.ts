/**
 * `svc render`: stdin → the streaming renderer → stdout on a terminal; stdin → stdout unchanged
 * anywhere else (a pipe, a file), so it can sit in any pipeline.
 */
import { StringDecoder } from 'node:string_decoder';
import { addAbortSignal, type Readable } from 'node:stream';
import { InterruptedError, UsageError } from '../../core/errors.js';
import type { IO } from '../../terminal/io.js';
import type { RenderTarget } from '../../render/terminal-renderer.js';
import { asBytes } from '../../terminal/streams.js';
import { StdoutBytes } from './stdout-bytes.js';

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
