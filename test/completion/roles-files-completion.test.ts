/**
 * Completions know roles and files: `--role` and `svc roles show|edit|rm`
 * complete the roles there are (from `svc roles list`), and `-f` completes paths, in bash for real.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { bashComplete } from '../helpers/bash-complete.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
  mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles'), { recursive: true });
  writeFileSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles', 'reviewer.md'), 'Review.\n');
  mkdirSync(join(sandbox.home, 'notes'));
  writeFileSync(join(sandbox.home, 'notes', 'todo.md'), 'x');
});
afterAll(() => sandbox.cleanup());

/** Complete `line` (the cursor at its end) with the committed bash script. */
const complete = (line: string): Promise<string[]> => bashComplete(line, sandbox.env, sandbox.home);

describe('role and file completions', () => {
  it.each([
    ['svc chat --role ', ['commit', 'explain', 'reviewer', 'shell', 'translate']],
    ['svc chat --role s', ['shell']],
    ['svc roles ', ['list', 'show', 'set', 'edit', 'delete']],
    ['svc roles edit r', ['reviewer']],
    ['svc chat -f notes/', ['notes/todo.md']],
    ['svc chat --dry', ['--dry-run']],
    ['svc image --dry', ['--dry-run']],
    ['svc batch --dry', ['--dry-run']],
  ])('bash: %j offers %j', async (line, expected) => {
    expect((await complete(line)).sort()).toEqual([...expected].sort());
  });
});
