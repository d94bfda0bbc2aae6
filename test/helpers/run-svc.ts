/**
 * Run the built `svc` binary as a user would: a fresh process, XDG folders in a temp dir, no
 * SVC_* variables leaking in from the developer's shell.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options, type Result } from 'execa';

export const SVC_BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const LAUNCHER_ANSWERS = fileURLToPath(new URL('./launcher-answers.cjs', import.meta.url));

export interface Sandbox {
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** A throwaway HOME with XDG folders inside it. */
export function makeSandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const home = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NO_COLOR: '1',
    ...extraEnv,
  };
  // Retried: an svc the test stopped may still be writing Node's compile cache (bin/svc.js) into
  // the folder as it exits, and a folder that gains a file while it is removed is not empty.
  return { home, env, cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}

export type SvcResult = Result<{ reject: false }>;

/** Run `svc args...`; never throws on a non-zero exit (tests assert the code). */
export function svc(args: string[], sandbox: Sandbox, options: Options = {}): Promise<SvcResult> {
  return execa(process.execPath, [SVC_BIN, ...args], {
    env: sandbox.env,
    extendEnv: false,
    reject: false,
    // No terminal and nothing to read unless the test pipes something in.
    ...(options.input === undefined ? { stdin: 'ignore' as const } : {}),
    timeout: 20_000,
    cwd: sandbox.home,
    ...options,
  }) as unknown as Promise<SvcResult>;
}

/**
 * What the launcher (bin/svc.js) writes to stdout for each command line, all run in one process
 * (launcher-answers.cjs) instead of a Node start-up each: for the lines it answers itself
 * (--version, help pages), that answer; '' for a line it hands to the full program. The process
 * must exit 0 and write nothing else.
 */
export async function launcherAnswers(lines: string[][], sandbox: Sandbox): Promise<string[]> {
  const run = await execa(process.execPath, [LAUNCHER_ANSWERS, SVC_BIN, JSON.stringify(lines)], { env: sandbox.env, extendEnv: false, cwd: sandbox.home, stdin: 'ignore', reject: false, stripFinalNewline: false, timeout: 20_000 });
  if (run.exitCode !== 0 || run.stderr !== '') throw new Error(`the launcher's answers: exit ${run.exitCode}\n${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

/** No stack trace, no "at file:line" frames. */
export function hasStackTrace(text: string): boolean {
  return /\n\s+at .+:\d+:\d+/.test(text);
}
