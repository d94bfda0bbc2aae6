/**
 * Plain mode (`--plain`, `SVC_PLAIN=1`, `TERM=dumb`): what a screen reader and a log file need.
 * No spinner, no cursor movement, no colour, no line drawn twice; replies as their text, line by
 * line, each line printed once when it is whole; no image preview; the session reads lines as
 * the terminal itself edits them. One test here so every part asks the same question.
 */
import { switchWord } from '../core/parse-values.js';

export function plainWanted(env: Record<string, string | undefined>): boolean {
  const flag = env.SVC_PLAIN;
  // The switch words of every on/off setting; any other value set turns it on, as it always did:
  // a variable read by the spinner and the renderer must never stop a command.
  return (flag !== undefined && flag.trim() !== '' && switchWord(flag) !== 'off') || env.TERM === 'dumb';
}
