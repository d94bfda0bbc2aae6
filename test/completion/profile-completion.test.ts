/**
 * Completions know profiles: `--profile` after any command and `svc profiles use` complete the
 * names of the profiles there are (from `svc profiles list`), in bash for real.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionModel } from '../../src/commands/completion/model.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import type { IO } from '../../src/terminal/io.js';
import { buildProgram } from '../../src/program.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { bashComplete } from '../helpers/bash-complete.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
  for (const name of ['work', 'weekend']) mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'profiles', name), { recursive: true });
});
afterAll(() => sandbox.cleanup());

/** Complete `line` (the cursor at its end) with the committed bash script. */
const complete = (line: string): Promise<string[]> => bashComplete(line, sandbox.env, fileURLToPath(new URL('../..', import.meta.url)));

describe('profile completions', () => {
  it('every command that reads settings or the key offers --profile; render, emulator, completion and help do not', () => {
    const program = buildProgram({ factory: createFactory({ env: {} } as IO), signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) });
    for (const command of completionModel(program)) {
      const names = command.flags.flatMap((flag) => flag.names);
      if (['render', 'emulator', 'completion', 'help'].includes(command.path[0] ?? '')) expect(names, command.path.join(' ')).not.toContain('--profile');
      else expect(names, command.path.join(' ')).toContain('--profile');
    }
  });

  it.each([
    ['svc chat --profile ', ['default', 'weekend', 'work']],
    ['svc --profile w', ['weekend', 'work']],
    ['svc profiles use ', ['default', 'weekend', 'work']],
    ['svc profiles ', ['list', 'use', 'delete']],
    ['svc auth status --pro', ['--profile']],
    // The value of --profile is not taken for a command word.
    ['svc --profile work se', ['sessions']],
  ])('bash: %j offers %j', async (line, expected) => {
    expect((await complete(line)).sort()).toEqual([...expected].sort());
  });
});
