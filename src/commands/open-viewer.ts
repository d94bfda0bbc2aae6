/**
 * `svc image --open`: hand a saved file to the system's viewer (xdg-open on Linux and the BSDs,
 * open on macOS, start on Windows), detached, so svc ends at once and the viewer stays. A missing
 * opener is a one-line warning, never a failure: the file is saved either way.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { IO } from '../terminal/io.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { forOutput } from '../core/terminal-text.js';

export interface Opener {
  command: string;
  args(path: string): string[];
  /** Windows' `start` is a cmd built-in whose quoting cmd parses itself. */
  verbatim?: boolean;
}

/** The usual "open with the default application" command of each platform. */
export function openerFor(platform: NodeJS.Platform): Opener {
  if (platform === 'darwin') return { command: 'open', args: (path) => [path] };
  // `start` takes a first quoted argument as a window title: an empty one goes first.
  if (platform === 'win32') return { command: 'cmd', args: (path) => ['/d', '/s', '/c', `start "" "${path}"`], verbatim: true };
  return { command: 'xdg-open', args: (path) => [path] };
}

/**
 * Open `path` (shown to the user as `shown`) in the viewer, and say so on stderr. Resolves once
 * the opener has started or failed to; never rejects.
 */
export function openInViewer(io: IO, path: string, shown: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const opener = openerFor(platform);
  const name = forOutput(shown, io.stderrIsTTY);
  // Absolute, so a name that starts with "-" is never read as one of the opener's options.
  const absolute = resolve(io.cwd, path);
  return new Promise((done) => {
    let child;
    try {
      child = spawn(opener.command, opener.args(absolute), {
        cwd: io.cwd,
        env: io.env,
        detached: true,
        stdio: 'ignore',
        windowsVerbatimArguments: opener.verbatim === true,
        windowsHide: true,
      });
    } catch (error) {
      io.warn(`cannot open ${name}: ${describeSystemError(error)}`);
      done();
      return;
    }
    child.once('spawn', () => {
      child.unref();
      io.say(`opening ${name} in the system viewer (${opener.command === 'cmd' ? 'start' : opener.command})`);
      done();
    });
    child.once('error', (error) => {
      const reason = errnoCode(error) === 'ENOENT' ? `${opener.command} was not found` : describeSystemError(error);
      io.warn(`cannot open ${name}: ${reason}; the file is saved, open it yourself`);
      done();
    });
  });
}
