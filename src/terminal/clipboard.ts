/**
 * Text onto the clipboard (the session's /copy), two ways at once:
 * - OSC 52: the terminal itself takes the text, which works over ssh with no helper, but only in
 *   terminals that allow it, and inside tmux only with its `set-clipboard` option on;
 * - the system's clipboard tool, when this machine has one for its display (wl-copy, xclip, xsel,
 *   pbcopy, clip.exe), which works whatever the terminal allows.
 * Neither can tell whether the text arrived, so both are tried, and the user is told which ran.
 */
import { execFile, spawn } from 'node:child_process';
import type { IO } from './io.js';

export interface ClipboardTool {
  command: string;
  args: string[];
  /** clip.exe reads UTF-16 (with its byte-order mark); UTF-8 would lose every character outside ASCII. */
  utf16?: boolean;
}

/** A tool that has not finished in this long is stopped: a clipboard is not worth a frozen prompt. */
const TOOL_TIMEOUT_MS = 3000;

/**
 * The clipboard tools this environment can use, in the order to try them: the platform's own, then
 * the display server's (WAYLAND_DISPLAY, DISPLAY: a tool for a display that is not there fails).
 */
export function clipboardTools(env: IO['env'], platform: NodeJS.Platform): ClipboardTool[] {
  const tools: ClipboardTool[] = [];
  if (platform === 'darwin') tools.push({ command: 'pbcopy', args: [] });
  // Windows, and WSL, whose Linux programs can run Windows' clip.exe.
  if (platform === 'win32' || env.WSL_DISTRO_NAME) tools.push({ command: 'clip.exe', args: [], utf16: true });
  if (env.WAYLAND_DISPLAY) tools.push({ command: 'wl-copy', args: [] });
  if (env.DISPLAY) tools.push({ command: 'xclip', args: ['-selection', 'clipboard'] }, { command: 'xsel', args: ['--clipboard', '--input'] });
  return tools;
}

/** How running one tool went: copied, not there (try the next), or failed (said, and the next is tried). */
type ToolResult = 'copied' | 'missing' | { failed: string };

function runTool(tool: ClipboardTool, text: string, env: IO['env']): Promise<ToolResult> {
  return new Promise((resolve) => {
    // Its output is not ours to show, and xclip and wl-copy leave a process behind that holds the
    // selection: with nothing of ours open in it, it never holds the session up.
    const child = spawn(tool.command, tool.args, { env, stdio: ['pipe', 'ignore', 'ignore'], timeout: TOOL_TIMEOUT_MS, windowsHide: true });
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'missing' : { failed: error.message }));
    child.once('exit', (code, signal) => resolve(code === 0 ? 'copied' : { failed: signal ? `stopped (${signal})` : `exit ${code}` }));
    // A tool that exits without reading closes the pipe: that is its exit status's to say.
    child.stdin.once('error', () => {});
    child.stdin.end(tool.utf16 ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) : text);
  });
}

/**
 * Inside tmux (TMUX set): tmux's `set-clipboard` option. Only "on" lets a program's OSC 52 through
 * to the terminal ("external", the default, is for tmux's own copy mode); undefined when tmux
 * cannot be asked.
 */
function tmuxSetClipboard(env: IO['env']): Promise<string | undefined> {
  if (!env.TMUX) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = execFile('tmux', ['show-options', '-gv', 'set-clipboard'], { env, timeout: TOOL_TIMEOUT_MS, encoding: 'utf8', windowsHide: true }, (error, stdout) => {
      resolve(error ? undefined : stdout.trim());
    });
    child.stdin?.end();
  });
}

export interface CopyOutcome {
  /** The tool that took the text, if one did. */
  tool?: string;
  /** Tools that were there and failed, with why. */
  failures: string[];
  /** Inside tmux with `set-clipboard` other than on: what the option is (OSC 52 stops at tmux). */
  tmuxBlocks?: string;
}

/** Put `text` on the clipboard by OSC 52 (on stderr, the terminal) and by the first system tool that takes it. */
export async function copyToClipboard(io: IO, text: string, platform: NodeJS.Platform = process.platform): Promise<CopyOutcome> {
  io.stderr.write(`\u001b]52;c;${Buffer.from(text).toString('base64')}\u0007`);
  const outcome: CopyOutcome = { failures: [] };
  for (const tool of clipboardTools(io.env, platform)) {
    const result = await runTool(tool, text, io.env);
    if (result === 'copied') {
      outcome.tool = tool.command;
      break;
    }
    if (result !== 'missing') outcome.failures.push(`${tool.command}: ${result.failed}`);
  }
  const setting = await tmuxSetClipboard(io.env);
  if (setting !== undefined && setting !== 'on') outcome.tmuxBlocks = setting;
  return outcome;
}

/** What the session says after a copy of `what` ("last reply", "the last reply's code"): one note a line. */
export function describeCopy(outcome: CopyOutcome, what: string): string[] {
  const lines: string[] = [];
  if (outcome.failures.length > 0) lines.push(`(the clipboard tool failed: ${outcome.failures.join('; ')})`);
  if (outcome.tool !== undefined) {
    lines.push(`(${what} copied to the clipboard with ${outcome.tool})`);
    return lines;
  }
  if (outcome.tmuxBlocks !== undefined) {
    lines.push(`(${what} sent to the terminal by OSC 52, but tmux keeps it: its set-clipboard is "${outcome.tmuxBlocks}")`);
    lines.push('(to let it through: `tmux set -g set-clipboard on`, and `set -g set-clipboard on` in ~/.tmux.conf to keep it)');
    return lines;
  }
  lines.push(`(${what} copied, if your terminal allows OSC 52)`);
  return lines;
}
