/**
 * Neutralising text before it reaches a terminal.
 *
 * Model output and service messages are untrusted: an ESC sequence in them could retitle the
 * window (OSC 0), write the clipboard (OSC 52), move the cursor or clear the screen. On a
 * terminal every C0/C1 control other than newline and tab is replaced by a visible stand-in,
 * and bidirectional overrides (the "Trojan Source" trick) are shown as their code point.
 * Piped output is never passed through here: scripts get the exact text.
 */

// C0 controls except TAB (0x09) and LF (0x0A), DEL, C1 controls, and the bidi embedding,
// override and isolate characters (U+202A..U+202E, U+2066..U+2069).
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // U+2400 "control pictures": ␛ for ESC
  if (code === 0x7f) return '\u2421'; // ␡
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Replace every control character that could drive a terminal with a harmless visible form. */
export function neutraliseForTerminal(text: string): string {
  // A CR that ends a line (CRLF) is dropped rather than shown, since it is only a line end.
  const withoutCrlf = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
  return withoutCrlf.replace(UNSAFE, visible);
}

/** Text for stdout or stderr: neutralised when it goes to a terminal, exact otherwise. */
export function forOutput(text: string, toTerminal: boolean): string {
  return toTerminal ? neutraliseForTerminal(text) : text;
}
