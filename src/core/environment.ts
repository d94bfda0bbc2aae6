/**
 * The environment variables svc reads, in two lists: those a user sets (`svc --help` prints them,
 * program.ts, and the "Environment variables" table of docs/settings.md lists the same names), and
 * those the terminal sets about itself, which svc only reads to tell what it can show
 * (docs/troubleshooting.md names them). A test checks both against the variables the source
 * reads, so none is read without being documented.
 */
export interface EnvironmentGroup {
  names: readonly string[];
  what: string;
}

/** The variables a user sets. */
export const ENVIRONMENT: readonly EnvironmentGroup[] = [
  { names: ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_KEY_COMMAND', 'SVC_PROFILE'], what: 'the service, its key (or the command printing it), the profile' },
  { names: ['SVC_MODEL', 'SVC_IMAGE_MODEL', 'SVC_TIMEOUT', 'SVC_MAX_RETRIES'], what: 'models, seconds of silence allowed, retries' },
  { names: ['SVC_RENDER', 'SVC_PREVIEW', 'SVC_PLAIN'], what: 'replies rendered or raw; image previews; 1: plain mode (as --plain)' },
  { names: ['SVC_PARAMS', 'SVC_STREAM_USAGE', 'SVC_IMAGE_METADATA', 'SVC_SAVE_ONE_SHOTS'], what: 'extra request fields; usage in streams; provenance in images; saving one-shots' },
  { names: ['SVC_IMAGE_INPUT_MAX'], what: 'pixels on the long side an image sent in a message is scaled down to' },
  { names: ['SVC_TOOLS'], what: 'tools every chat offers (as --tools names them)' },
  { names: ['SVC_CONTEXT_WINDOW', 'SVC_AUTO_COMPACT'], what: "the models' context window in tokens; compacting before a send over this percentage of it" },
  { names: ['SVC_DEBUG'], what: '1: a request log and stack traces (the key redacted)' },
  { names: ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'], what: 'proxies (lower case too)' },
  { names: ['NODE_EXTRA_CA_CERTS'], what: 'extra certificate authorities (a PEM file)' },
  { names: ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'HOME'], what: 'where settings, conversations, history and caches are kept' },
  { names: ['NO_COLOR', 'FORCE_COLOR', 'FORCE_HYPERLINK'], what: 'colour and links on the terminal' },
  { names: ['TERM'], what: 'dumb: plain text, as --plain' },
  { names: ['VISUAL', 'EDITOR'], what: 'the editor of /edit and `svc roles edit`' },
  { names: ['CI'], what: 'true: no spinner or live progress line' },
];

/** The variables terminals (and desktops) set about themselves: what they can show (colours, image protocols, links), and which clipboard tool there is. */
export const TERMINAL_ENVIRONMENT: readonly string[] = [
  'COLORTERM',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'LC_TERMINAL',
  'KITTY_WINDOW_ID',
  'GHOSTTY_RESOURCES_DIR',
  'KONSOLE_VERSION',
  'VTE_VERSION',
  'WT_SESSION',
  'XTERM_VERSION',
  'MLTERM',
  'TMUX',
  'STY',
  // Set by the desktop session: which clipboard tool /copy runs (wl-copy; xclip or xsel; clip.exe).
  'WAYLAND_DISPLAY',
  'DISPLAY',
  'WSL_DISTRO_NAME',
];

/** The environment section of `svc --help`: each group on a line, wrapped to fit 100 columns. */
export function environmentHelp(): string {
  const lines: string[] = [];
  for (const group of ENVIRONMENT) {
    const names = group.names.join(', ');
    if (names.length + group.what.length + 5 <= 98) {
      lines.push(`  ${names}   ${group.what}`);
      continue;
    }
    // Names on as many lines as they need, then what they are for, indented under them.
    let line = ' ';
    for (const name of group.names) {
      if (line.length + name.length + 2 > 98) {
        lines.push(line.replace(/,$/, ','));
        line = ' ';
      }
      line += ` ${name},`;
    }
    lines.push(line.slice(0, -1), `      ${group.what}`);
  }
  return lines.join('\n');
}
