/**
 * `/image [prompt] [--aspect R] [--format F] [--seed N] [--negative T] [-o path]`: make an image
 * without leaving the session, through the same core as `svc image` (generateAndSave): the file
 * saved under the name svc image would give it, the preview, the revised prompt, the saved line.
 * With no prompt, the last reply is drawn. Ctrl-C cancels the request; an error is reported as
 * svc image reports it; either way the session goes on. The image is kept in the conversation
 * as a record, never sent to the chat model.
 */
import { firstLineOf, type ImageNote } from '../../../conversations/model.js';
import { imageOptionsText } from '../../../conversations/timeline.js';
import { SvcError, UsageError } from '../../../core/errors.js';
import { EXISTS_HINT } from '../../../images/file-names.js';
import { reportError } from '../../../terminal/report-error.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import type { ImagePlan } from '../../image-options.js';
import { generateAndSave, planImage, prepareImage, shownPath, type ImageJob } from '../../image-job.js';
import { parseImageCommand, type ImageCommandOptions } from './image-args.js';
import { promptFromReply } from './reply-prompt.js';
import { say, type SessionState } from './session-state.js';

/** The newest reply with words in it (an interrupted turn may have none). */
function lastReply(state: SessionState): string | undefined {
  return [...state.session.turns].reverse().find((turn) => turn.assistant.trim() !== '')?.assistant;
}

/** The options as typed, for the record: what to give again to make the same image. */
function typedOptions(raw: ImageCommandOptions): Record<string, string> {
  const { words: _words, ...flags } = raw;
  return Object.fromEntries(Object.entries(flags).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Everything checked before the request: a typo or an unwritable folder costs no request. */
async function prepare(state: SessionState, arg: string): Promise<{ plan: ImagePlan; raw: ImageCommandOptions; job: Omit<ImageJob, 'signal'> } | undefined> {
  const { io } = state;
  const { context, client, plan: chatPlan } = state.deps;
  const raw = parseImageCommand(arg);
  if (raw.output === '-') throw new UsageError('/image saves a file; -o - (image bytes on stdout) is for svc image', { hint: 'give -o a file or folder name' });
  let drawingReply: string | undefined;
  if (raw.words.length === 0) {
    const reply = lastReply(state);
    if (reply === undefined) {
      say(state, '(no prompt, and no reply yet to draw: /image <what to draw>)');
      return undefined;
    }
    const { prompt, cut } = promptFromReply(reply);
    if (prompt === '') {
      say(state, '(the last reply has no prose to draw (only code): /image <what to draw>)');
      return undefined;
    }
    drawingReply = `(no prompt: drawing the last reply as plain text${cut ? `, cut to its first ${prompt.length} characters` : ''}: "${neutraliseForTerminal(firstLineOf(prompt, 70))}")`;
    raw.words = [prompt];
  }
  const plan = planImage(io, raw);
  const settings = await context.factory.settings(chatPlan.settings);
  plan.metadata = settings.imageMetadata.value === 'on';
  const { preview, target } = prepareImage(io, plan, settings, undefined);
  // Said once the options are known good, just before the request it announces.
  if (drawingReply) say(state, drawingReply);
  // probe: false: the line editor owns stdin, and would read the terminal's answer as typing.
  return { plan, raw, job: { client, model: settings.imageModel.value, preview, target, probe: false } };
}

/** An image in /history and the resume banner: `[image] prompt → saved path (options)`. */
export function imageHistoryLine(image: ImageNote, cwd?: string): string {
  const options = imageOptionsText(image);
  const path = cwd === undefined ? image.path : shownPath(cwd, image.path);
  return `[image] ${neutraliseForTerminal(firstLineOf(image.prompt, 70))} → ${neutraliseForTerminal(path)}${options === '' ? '' : ` (${neutraliseForTerminal(options)})`}`;
}

/** A taken name's hint names --force, which /image does not take: it says what /image can do. */
function withoutForce(error: unknown): unknown {
  if (!(error instanceof SvcError) || error.hint !== EXISTS_HINT) return error;
  return new UsageError(error.message, { hint: 'choose another name with -o, or leave -o out for a free one' });
}

export async function runImageCommand(state: SessionState, arg: string): Promise<void> {
  const { io } = state;
  const { context } = state.deps;
  let prepared;
  try {
    prepared = await prepare(state, arg);
  } catch (error) {
    return reportError(io, withoutForce(error), context.factory.loadedApiKey());
  }
  if (!prepared) return;
  const { plan, raw, job } = prepared;

  const stop = new AbortController();
  // Ctrl-C from the keyboard (raw mode: the reader sees it) or as a signal, as a turn does (ask.ts).
  const releaseKeys = state.reader.whileBusy(() => stop.abort());
  const release = context.interrupts.push(() => stop.abort());
  const onLeave = (): void => stop.abort();
  context.signal.addEventListener('abort', onLeave, { once: true });
  try {
    const saved = await generateAndSave(io, plan, { ...job, signal: stop.signal });
    for (const image of saved) {
      state.session.addImage({ prompt: plan.prompt, ...(image.revisedPrompt === undefined ? {} : { revisedPrompt: image.revisedPrompt }), options: typedOptions(raw), path: image.path });
      state.lastImage = image.path;
    }
  } catch (error) {
    if (stop.signal.aborted) say(state, '(image cancelled; nothing saved)');
    else await reportError(io, withoutForce(error), context.factory.loadedApiKey());
  } finally {
    releaseKeys();
    release();
    context.signal.removeEventListener('abort', onLeave);
  }
}
