/**
 * /edit: write a message in the user's editor ($VISUAL, then $EDITOR, then vi), as git does.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EditorResult {
  text: string | undefined;
  /** Why nothing came back, for the user. */
  problem?: string;
}

/**
 * Open the editor on `draft` with the terminal `ttyFd` as its input; returns the saved text.
 * The editor command goes through the shell, so `EDITOR="code --wait"` works.
 */
export function editInEditor(env: Record<string, string | undefined>, draft: string, ttyFd: number): EditorResult {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'svc-edit-'));
  const file = join(dir, 'message.md');
  try {
    writeFileSync(file, draft, { mode: 0o600 });
    const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: [ttyFd, 2, 2], env: env as NodeJS.ProcessEnv });
    if (result.error) return { text: undefined, problem: `could not start the editor "${editor}": ${result.error.message}` };
    if (result.status !== 0) return { text: undefined, problem: `the editor "${editor}" exited with status ${result.status}; nothing sent` };
    return { text: readFileSync(file, 'utf8').replace(/\s+$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
