/**
 * `/file` in the session: files read now and attached to the next message sent (listed until
 * then), as `-f` does for a one-shot chat. A refusal attaches nothing of that command and says
 * why; the session goes on.
 */
import { existsSync } from 'node:fs';
import { promptWithRole } from '../../../roles/fill-role.js';
import { composeMessage, describeFile, type Prompt } from '../../../attachments/message.js';
import { readAttachments } from '../../../attachments/read.js';
import { prepareImages } from '../../../attachments/image-input.js';
import { UsageError } from '../../../core/errors.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import { shownPath } from '../../image-job.js';
import { savePath } from './save-messages.js';
import { say, type SessionState } from './session-state.js';

/**
 * The paths of a /file line: split at spaces, except inside "double" or 'single' quotes or after
 * a backslash (a path with spaces), as a shell would. `~/` is the home folder (no shell expands it).
 */
export function splitPaths(arg: string): string[] {
  const paths: string[] = [];
  let current: string | undefined;
  let quote: string | undefined;
  for (let index = 0; index < arg.length; index++) {
    const char = arg[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      current ??= '';
    } else if (char === '\\' && index + 1 < arg.length) {
      current = (current ?? '') + arg[++index];
    } else if (/\s/.test(char)) {
      if (current !== undefined) paths.push(current);
      current = undefined;
    } else current = (current ?? '') + char;
  }
  if (current !== undefined) paths.push(current);
  return paths;
}

function listPending(state: SessionState): string {
  return state.attachments.map((file) => neutraliseForTerminal(describeFile(file))).join(' ');
}

/**
 * The file `/file last` stands for: the newest image /image saved in this session, else (none
 * made yet) the newest one of the conversation, as a --continue'd conversation lists it in
 * /history. Named as the saved line showed it (relative to the session's folder when inside it).
 * A refusal says why when there is none, or its file is gone.
 */
function lastImageFile(state: SessionState): string {
  const path = state.lastImage ?? state.session.images.at(-1)?.path;
  if (path === undefined) throw new UsageError('/file last: no image made with /image yet; nothing attached', { hint: '/image <what to draw> makes one; /file <path> attaches any picture' });
  if (!existsSync(path)) throw new UsageError(`/file last: the last image made, ${path}, is no longer there; nothing attached`, { hint: '/file <path> attaches a picture where it is now' });
  return shownPath(state.io.cwd, path);
}

/** `/file` lists, `/file clear` drops, `/file last` attaches the last /image, `/file <path...>` attaches (an image scaled down as -f does). */
export async function fileCommand(state: SessionState, arg: string): Promise<void> {
  const paths = splitPaths(arg.trim());
  if (paths.length === 0) {
    say(state, state.attachments.length > 0 ? `with your next message: ${listPending(state)}` : '(no files attached; /file <path...> attaches some)');
    return;
  }
  if (paths.length === 1 && paths[0] === 'clear') {
    const count = state.attachments.length;
    state.attachments = [];
    say(state, count > 0 ? `(dropped ${count} file${count === 1 ? '' : 's'})` : '(no files were attached)');
    return;
  }
  // `~/x` as a shell would read it; globs and relative paths from the session's folder; a file
  // named "last" is ./last.
  const { cwd, env } = state.io;
  try {
    const named = paths.map((path) => (path === 'last' ? lastImageFile(state) : path === '~' || path.startsWith('~/') ? savePath(path, cwd, env) : path));
    const read = readAttachments(named, cwd, '/file', state.attachments);
    const max = read.some((file) => file.image && 'data' in file.image) ? (await state.deps.context.factory.settings(state.deps.plan.settings)).imageInputMax.value : undefined;
    state.attachments = [...state.attachments, ...(max === undefined ? read : await prepareImages(read, { max, option: '/file' }))];
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(state, neutraliseForTerminal([error.message, ...(error.hint ? [error.hint] : [])].join('\n')));
    return;
  }
  say(state, `with your next message: ${listPending(state)}`);
}

/** The message to send for typed `text`: with the files attached so far, which are then taken. */
export function takeAttachments(state: SessionState, text: string): Prompt {
  // A role with a prompt template wraps each message typed (roles/fill-role.ts).
  const composed = composeMessage(text, state.attachments, '', state.deps.plan.imageDetail);
  const prompt = { ...composed, text: promptWithRole(state.role, composed.text) };
  state.attachments = [];
  return prompt;
}
