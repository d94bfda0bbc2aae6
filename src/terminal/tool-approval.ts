/**
 * A tool call on the terminal: shown before it runs (the server, the tool, the arguments as
 * indented JSON) and asked about, one key: y runs it once, a runs it and every later call of that
 * tool without asking again, n (or Enter, Esc) declines it; Ctrl-C interrupts. Only a key pressed
 * on its own counts: a paste, or an arrow key's sequence, answers nothing. Everything shown is
 * neutralised: the arguments are the model's text, and the tool's output may try to steer it.
 *
 * Also the dim lines of a call that runs without asking and of each result.
 */
import type { Readable, Writable } from 'node:stream';
import type { Approval, CallView } from '../chat/tool-loop.js';
import type { ToolCallRecord } from '../conversations/model.js';
import { InterruptedError } from '../core/errors.js';
import { neutraliseForTerminal } from '../core/terminal-text.js';

const DIM = '\u001b[2m';
const UNDIM = '\u001b[22m';
const BOLD = '\u001b[1m';

/** The most lines of arguments shown before asking; the rest is counted, not shown. */
export const SHOWN_ARGUMENT_LINES = 60;
/** The most characters of one line of arguments shown. */
const SHOWN_LINE_CHARACTERS = 2000;

/** `fs.read_file`: the tool as the user names it in --tools and --allow. */
export function toolLabel(view: Pick<CallView, 'identity'>): string {
  return `${view.identity.server}.${view.identity.tool}`;
}

/** The arguments as indented JSON (as sent when they are not JSON), neutralised, cut to what a screen holds. */
export function argumentLines(text: string, maxLines = SHOWN_ARGUMENT_LINES): string[] {
  let pretty: string;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    pretty = text;
  }
  const lines = neutraliseForTerminal(pretty)
    .split('\n')
    .map((line) => (line.length > SHOWN_LINE_CHARACTERS ? `${line.slice(0, SHOWN_LINE_CHARACTERS)}… (${line.length - SHOWN_LINE_CHARACTERS} more characters)` : line));
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), `… (${lines.length - maxLines} more lines, ${text.length} characters in all)`];
}

/** What is shown before asking: the tool (and whether its server marks it read-only), then its arguments. */
export function describeCall(view: CallView, colour: boolean): string {
  const label = neutraliseForTerminal(toolLabel(view));
  const name = colour ? `${BOLD}${label}${UNDIM}` : label;
  const readOnly = view.identity.readOnly ? ' (read-only, says its server)' : '';
  const args = argumentLines(view.argumentsText).map((line) => `    ${line}`);
  return `tool call: ${name}${readOnly}\n${args.join('\n')}\n`;
}

/** The question, and the answers it takes. `scope` says how long "always" lasts. */
export function approvalQuestion(view: CallView, scope: 'session' | 'command'): string {
  return `run it? y yes · a yes, and always for ${neutraliseForTerminal(toolLabel(view))} in this ${scope} · n no › `;
}

/** The answer a key (one read of the terminal) gives; undefined for a key that answers nothing. */
export function answerOfKey(chunk: string): Approval | 'interrupt' | undefined {
  if (chunk.length !== 1) return undefined;
  switch (chunk) {
    case '\u0003':
      return 'interrupt';
    case 'y':
    case 'Y':
      return 'once';
    case 'a':
    case 'A':
      return 'always';
    case 'n':
    case 'N':
    case '\r':
    case '\n':
    case '\u001b':
    case '\u0004':
      return 'no';
    default:
      return undefined;
  }
}

/** The answer a typed line gives (plain mode, where the terminal sends whole lines); undefined: ask again. */
export function answerOfLine(line: string): Approval | undefined {
  const text = line.trim().toLowerCase();
  if (text === 'y' || text === 'yes') return 'once';
  if (text === 'a' || text === 'always') return 'always';
  if (text === '' || text === 'n' || text === 'no') return 'no';
  return undefined;
}

/** The answer, said after the question. */
function answerWords(answer: Approval, view: CallView): string {
  if (answer === 'once') return 'yes';
  if (answer === 'always') return `yes, always for ${neutraliseForTerminal(toolLabel(view))}`;
  return 'no';
}

/** Keys from the terminal, each read as it comes, until the returned function stops it. */
export type KeySource = (onKey: (chunk: string) => void) => () => void;

/** A terminal's keys, in raw mode while they are listened to; it goes back to how it was after. */
export function rawKeys(input: Readable & { isTTY?: boolean; isRaw?: boolean; setRawMode?: (raw: boolean) => unknown }): KeySource {
  return (onKey) => {
    const wasRaw = input.isRaw === true;
    if (input.isTTY && input.setRawMode) input.setRawMode(true);
    input.setEncoding('utf8');
    const listener = (chunk: string | Buffer): void => onKey(String(chunk));
    input.on('data', listener);
    input.resume();
    return () => {
      input.off('data', listener);
      input.pause();
      if (input.isTTY && input.setRawMode && !wasRaw) input.setRawMode(false);
    };
  };
}

/**
 * Show `view`, ask, and wait for one key. Resolves with the answer; rejects with
 * InterruptedError on Ctrl-C, or when `signal` is aborted (SIGTERM, a kill -INT) while it waits.
 */
export function askByKeys(keys: KeySource, output: Writable, view: CallView, options: { colour: boolean; scope: 'session' | 'command'; signal?: AbortSignal | undefined }): Promise<Approval> {
  output.write(describeCall(view, options.colour));
  output.write(approvalQuestion(view, options.scope));
  const { signal } = options;
  return new Promise((resolve, reject) => {
    const interrupted = (): void => {
      stop();
      signal?.removeEventListener('abort', interrupted);
      output.write('^C\n');
      reject(new InterruptedError());
    };
    const stop = keys((chunk) => {
      const answer = answerOfKey(chunk);
      if (answer === undefined) return;
      if (answer === 'interrupt') return interrupted();
      stop();
      signal?.removeEventListener('abort', interrupted);
      output.write(`${answerWords(answer, view)}\n`);
      resolve(answer);
    });
    if (signal?.aborted) interrupted();
    else signal?.addEventListener('abort', interrupted, { once: true });
  });
}

/** One line read from the person: what the session's readers give. */
export type LineAnswer = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt' };

/**
 * As askByKeys, with a whole line for the answer (plain mode: the terminal edits the line
 * itself). An answer it does not know asks again; Ctrl-D is no.
 */
export async function askByLine(read: (prompt: string) => Promise<LineAnswer>, output: Writable, view: CallView, scope: 'session' | 'command'): Promise<Approval> {
  output.write(describeCall(view, false));
  for (;;) {
    const line = await read(approvalQuestion(view, scope));
    if (line.kind === 'interrupt') throw new InterruptedError();
    if (line.kind === 'eof') return 'no';
    const answer = answerOfLine(line.text);
    if (answer) return answer;
    output.write('(answer y, a or n)\n');
  }
}

/** The dim line of a call that runs without asking: the tool and its arguments on one line, cut to the width. */
export function callLine(view: CallView, options: { colour: boolean; columns: number | undefined }): string {
  const args = argumentLines(view.argumentsText, 1_000_000).map((line) => line.trim()).join(' ');
  const text = fit(`tool: ${toolLabel(view)} ${args}`, options.columns);
  return `${options.colour ? `${DIM}${neutraliseForTerminal(text)}${UNDIM}` : neutraliseForTerminal(text)}\n`;
}

/** The dim line of a result: declined, an error, or its size and first line. */
export function resultLine(record: ToolCallRecord, summary: string, options: { colour: boolean; columns: number | undefined }): string {
  const text = fit(`  ↳ ${record.tool ?? record.name}: ${summary}`, options.columns);
  return `${options.colour ? `${DIM}${neutraliseForTerminal(text)}${UNDIM}` : neutraliseForTerminal(text)}\n`;
}

/** One line of at most `columns - 1` characters (an ellipsis where it was cut). */
function fit(text: string, columns: number | undefined): string {
  const line = text.replace(/\s*\n\s*/g, ' ');
  const width = Math.max(20, (columns ?? 100) - 1);
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
