/**
 * The key from a command (`svc config set keyCommand "pass show svc"`), for people who keep keys
 * in a password manager or keyring rather than a plain file: the command's first line of output
 * is the key. It is run without a shell (the text is split into words as a shell would, quotes
 * honoured, nothing expanded), with a timeout, its stdout bounded; it beats the stored key and
 * yields to SVC_API_KEY. Any failure is exit 3 saying what went wrong, never the output itself.
 */
import { execFile } from 'node:child_process';
import { UnusableKeyError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { checkKeyShape } from './api-key.js';
import { splitCommandLine } from './command-line.js';

/** Long enough for a password manager that asks to unlock (a GUI pinentry), short enough not to hang a script. */
export const KEY_COMMAND_TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 64 * 1024;

/** Run the command and return the key it prints. */
export function keyFromCommand(
  text: string,
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  timeoutMs = KEY_COMMAND_TIMEOUT_MS,
  /** How to stop using it, where it was set: `svc config unset keyCommand --profile work`, `unset SVC_KEY_COMMAND`. */
  undo = '`svc config unset keyCommand`',
): Promise<string> {
  const [file, ...args] = splitCommandLine(text);
  const named = `the keyCommand (${text})`;
  return new Promise((resolve, reject) => {
    execFile(file!, args, { env: env as NodeJS.ProcessEnv, timeout: timeoutMs, maxBuffer: MAX_OUTPUT, encoding: 'utf8', windowsHide: true }, (error, stdout, stderr) => {
      if (error) {
        const { code, killed, signal } = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
        let why: string;
        if (errnoCode(error) !== undefined && typeof code === 'string' && !/^ERR_/.test(code)) why = `cannot run ${file}: ${describeSystemError(error)}`;
        else if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') why = `it printed more than ${MAX_OUTPUT / 1024} KiB`;
        else if (killed || signal) why = killed ? `it did not finish within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}` : `it was stopped by ${signal}`;
        else {
          // Its own words help (a locked store, a missing entry); they are its stderr, never its stdout.
          const said = stderr.trim().split('\n')[0]?.slice(0, 200);
          why = `it failed (exit ${String(code)})${said ? `: ${said}` : ''}`;
        }
        reject(new UnusableKeyError(`${named} gave no key: ${why}`, { hint: `run the command yourself to see why, or stop using it: ${undo}` }));
        return;
      }
      const key = stdout.split(/\r?\n/)[0]?.trim() ?? '';
      if (key === '') {
        reject(new UnusableKeyError(`${named} printed no key on its first line`, { hint: 'the command must print the key alone on its first line' }));
        return;
      }
      const problem = checkKeyShape(key);
      if (problem) reject(new UnusableKeyError(`${named} printed something that cannot be a key: ${problem}`, { hint: 'the command must print the key alone on its first line' }));
      else resolve(key);
    });
  });
}
