/**
 * OSC 8 hyperlinks (https://gist.github.com/egmontkob/eb114294efbcd5adb1944c9f3cb5feda): when the
 * terminal is known to support them, and only for URLs that cannot break out of the sequence.
 */

const ESC = '\u001b';

/** Start a hyperlink to `url` (already checked by {@link safeHyperlink}). */
export function openLink(url: string): string {
  return `${ESC}]8;;${url}${ESC}\\`;
}

export const CLOSE_LINK = `${ESC}]8;;${ESC}\\`;

/**
 * The URL as a hyperlink target, or undefined when it must not be one. Model text has already
 * been neutralised (no control character is left), but the sequence also ends at any byte
 * outside printable ASCII for some terminals, so only http(s) and mailto URLs made of printable
 * ASCII without spaces are linked; anything else is still shown as text.
 */
export function safeHyperlink(url: string): string | undefined {
  if (url.length > 2048) return undefined;
  return /^(?:https?:\/\/|mailto:)[\x21-\x7e]+$/i.test(url) ? url : undefined;
}

function atLeast(version: string | undefined, major: number, minor = 0): boolean {
  const [a = 0, b = 0] = (version ?? '').split('.').map((part) => Number.parseInt(part, 10) || 0);
  return a > major || (a === major && b >= minor);
}

/**
 * Whether stdout's terminal shows OSC 8 links. FORCE_HYPERLINK (0 or 1) decides when set, as for
 * the supports-hyperlinks package; otherwise only terminals known to support them are trusted,
 * since an old terminal may print the sequence's text. Inside tmux or screen the outer terminal
 * is unknown, so no links there.
 */
export function hyperlinksWanted(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== '') return forced !== '0' && forced !== 'false';
  if (!isTTY || env.CI !== undefined || env.TMUX !== undefined || env.STY !== undefined) return false;
  if (env.TERM === 'dumb') return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.TERM === 'xterm-kitty' || env.TERM === 'xterm-ghostty') return true;
  if (env.VTE_VERSION) return Number.parseInt(env.VTE_VERSION, 10) >= 5000;
  if (env.KONSOLE_VERSION) return Number.parseInt(env.KONSOLE_VERSION, 10) >= 210400;
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return atLeast(env.TERM_PROGRAM_VERSION, 3, 1);
    case 'WezTerm':
    case 'ghostty':
      return true;
    case 'vscode':
      return atLeast(env.TERM_PROGRAM_VERSION, 1, 72);
    default:
      return false;
  }
}
