/**
 * Which way to draw a preview, from what the terminal says about itself (environment variables
 * terminals set, the way chafa, timg and viu read them). Pure, so a table test covers it; the one
 * question asked of the terminal itself (does it speak sixel?) is asked by the caller, only when
 * this says it is worth asking.
 */
import type { PreviewChoice } from '../settings/definitions.js';
import type { ColourDepth } from './encoders/blocks.js';

export type { PreviewChoice } from '../settings/definitions.js';
export type Protocol = 'kitty' | 'iterm' | 'sixel' | 'blocks';

type Env = Record<string, string | undefined>;

/** tmux or GNU screen between svc and the terminal: they keep neither kitty nor iTerm2 images. */
export function multiplexer(env: Env): 'tmux' | 'screen' | undefined {
  const term = env.TERM ?? '';
  if (env.TMUX || term.startsWith('tmux') || env.TERM_PROGRAM === 'tmux') return 'tmux';
  if (env.STY || term.startsWith('screen')) return 'screen';
  return undefined;
}

/** kitty, and Ghostty, which implements the whole kitty protocol. */
function speaksKitty(env: Env): boolean {
  return env.TERM === 'xterm-kitty' || Boolean(env.KITTY_WINDOW_ID) || env.TERM_PROGRAM === 'ghostty' || env.TERM === 'xterm-ghostty' || Boolean(env.GHOSTTY_RESOURCES_DIR);
}

/**
 * iTerm2 (LC_TERMINAL also travels through ssh, where TERM_PROGRAM does not), and WezTerm: it
 * speaks kitty's protocol too, but only partly and only when configured to (chafa and timg both
 * moved WezTerm back off kitty), while its iTerm2 support is complete and always on.
 */
function speaksIterm(env: Env): boolean {
  return env.TERM_PROGRAM === 'iTerm.app' || env.LC_TERMINAL === 'iTerm2' || env.TERM_PROGRAM === 'WezTerm';
}

/**
 * 24-bit colour when the terminal says so (the COLORTERM convention, or a `-direct` terminfo
 * name), or is one known to draw it that does not say: xterm from patch 331 (it drops COLORTERM
 * from its children's environment), mlterm (which never sets it), Konsole and Windows Terminal,
 * each known by the variable it sets. Else the 256-colour palette, whose few dark colours turn a
 * dusky sky grey.
 */
export function colourDepth(env: Env): ColourDepth {
  const colorterm = (env.COLORTERM ?? '').toLowerCase();
  if (colorterm === 'truecolor' || colorterm === '24bit' || (env.TERM ?? '').endsWith('-direct')) return 'truecolor';
  const xterm = /^XTerm\((\d+)\)$/.exec(env.XTERM_VERSION ?? '');
  if (xterm && Number(xterm[1]) >= 331) return 'truecolor';
  if (env.MLTERM || env.KONSOLE_VERSION || env.WT_SESSION) return 'truecolor';
  return '256';
}

export type Decision =
  | { kind: 'none'; reason: string }
  | { kind: 'draw'; protocol: Protocol; colours: ColourDepth; passthrough: 'tmux' | undefined }
  /** Ask the terminal (DA1) whether it speaks sixel; `sixel` if it does, `fallback` if not. */
  | { kind: 'probe'; colours: ColourDepth; vscode: boolean };

/**
 * The decision for a choice (flag, SVC_PREVIEW or the stored setting) in this environment.
 * `canProbe`: stdin and stdout are the same terminal, so a question can be asked and answered.
 */
export function decide(choice: PreviewChoice, env: Env, canProbe: boolean): Decision {
  const colours = colourDepth(env);
  const muxed = multiplexer(env);
  if (choice === 'none') return { kind: 'none', reason: 'turned off' };
  if (choice !== 'auto') {
    // Asked for by name: drawn even inside tmux, wrapped so tmux hands it to the outer terminal
    // (it needs `set -g allow-passthrough on`). Sixel goes as it is: tmux 3.4+ draws it itself.
    const passthrough = muxed === 'tmux' && (choice === 'kitty' || choice === 'iterm') ? 'tmux' : undefined;
    return { kind: 'draw', protocol: choice, colours, passthrough };
  }
  if (env.TERM === 'dumb') return { kind: 'none', reason: 'TERM=dumb' };
  const blocks: Decision = { kind: 'draw', protocol: 'blocks', colours, passthrough: undefined };
  if (muxed) return blocks;
  if (speaksKitty(env)) return { kind: 'draw', protocol: 'kitty', colours, passthrough: undefined };
  if (speaksIterm(env)) return { kind: 'draw', protocol: 'iterm', colours, passthrough: undefined };
  // Half blocks are coloured text: NO_COLOR (no-color.org) asks for none, so no preview unless
  // a protocol turns up or one is asked for by name.
  const noColour = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  if (canProbe) return { kind: 'probe', colours, vscode: env.TERM_PROGRAM === 'vscode' };
  return noColour ? { kind: 'none', reason: 'NO_COLOR is set' } : blocks;
}

/**
 * After a DA1 probe: sixel when the terminal listed it; in VS Code that answer means its image
 * support is turned on, which speaks iTerm2's protocol too, the better of the two.
 */
export function afterProbe(decision: Extract<Decision, { kind: 'probe' }>, sixel: boolean, env: Env): Decision {
  if (sixel) return { kind: 'draw', protocol: decision.vscode ? 'iterm' : 'sixel', colours: decision.colours, passthrough: undefined };
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return { kind: 'none', reason: 'NO_COLOR is set' };
  return { kind: 'draw', protocol: 'blocks', colours: decision.colours, passthrough: undefined };
}

/** tmux's passthrough: the escape inside a DCS, each ESC doubled, for the terminal outside. */
export function wrapForTmux(escape: string): string {
  return `\x1bPtmux;${escape.replaceAll('\x1b', '\x1b\x1b')}\x1b\\`;
}
