/**
 * Completions know roles and files: `--role` and `svc roles show|edit|rm`
 * complete the roles there are (from `svc roles list`), and `-f` completes paths, in bash for real.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
  mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles'), { recursive: true });
  writeFileSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles', 'reviewer.md'), 'Review.\n');
  mkdirSync(join(sandbox.home, 'notes'));
  writeFileSync(join(sandbox.home, 'notes', 'todo.md'), 'x');
});
afterAll(() => sandbox.cleanup());

/** Complete `line` (the cursor at its end) with the committed bash script, from the sandbox's home. */
async function bashComplete(line: string): Promise<string[]> {
  const completions = fileURLToPath(new URL('../../completions/svc.bash', import.meta.url));
  const script = `
    svc() { node "${SVC_BIN}" "$@"; }
    source "${completions}"
    COMP_LINE="$1"; COMP_POINT=\${#COMP_LINE}
    read -ra COMP_WORDS <<< "$COMP_LINE"
    [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
    _svc
    printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = await execa('bash', ['-c', script, 'bash', line], { cwd: sandbox.home, env: sandbox.env, extendEnv: false });
  return result.stdout.split('\n').filter(Boolean);
}

describe('role and file completions', () => {
  it.each([
    ['svc chat --role ', ['commit', 'explain', 'reviewer', 'shell']],
    ['svc chat --role s', ['shell']],
    ['svc roles ', ['list', 'show', 'set', 'edit', 'rm']],
    ['svc roles edit r', ['reviewer']],
    ['svc chat -f notes/', ['notes/todo.md']],
    ['svc chat --dry', ['--dry-run']],
    ['svc image --dry', ['--dry-run']],
    ['svc batch --dry', ['--dry-run']],
  ])('bash: %j offers %j', async (line, expected) => {
    expect((await bashComplete(line)).sort()).toEqual([...expected].sort());
  });
});
