/**
 * Plain mode (`--plain`, `SVC_PLAIN=1`, `TERM=dumb`): what a screen reader and a log file need.
 * No spinner, no cursor movement, no colour, no line drawn twice; replies as their text, line by
 * line, each line printed once when it is whole; no image preview; the session reads lines as
 * the terminal itself edits them. One test here so every part asks the same question.
 */
export function plainWanted(env: Record<string, string | undefined>): boolean {
  const flag = env.SVC_PLAIN;
  return (flag !== undefined && flag !== '' && flag !== '0' && flag.toLowerCase() !== 'false') || env.TERM === 'dumb';
}
