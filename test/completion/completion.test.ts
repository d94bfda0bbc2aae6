/**
 * Shell completions: generated from the program, committed in completions/, and working for
 * real in bash (COMP_WORDS/COMP_LINE → COMPREPLY) and fish (complete -C); zsh is syntax-checked.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionModel } from '../../src/commands/completion/model.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import type { IO } from '../../src/terminal/io.js';
import { buildProgram } from '../../src/program.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { bashComplete } from '../helpers/bash-complete.js';

const FILES = { bash: 'svc.bash', zsh: '_svc', fish: 'svc.fish' } as const;
const committed = (shell: keyof typeof FILES) => readFileSync(fileURLToPath(new URL(`../../completions/${FILES[shell]}`, import.meta.url)), 'utf8');
const hasShell = async (shell: string) => (await execa(shell, ['-c', 'exit 0'], { reject: false })).exitCode === 0;
const [hasZsh, hasFish] = await Promise.all([hasShell('zsh'), hasShell('fish')]);
if (process.env.CI && !(hasZsh && hasFish)) throw new Error('CI must have zsh and fish (.ci/run installs them)');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = makeSandbox();
  // Two saved conversations, for --session completion.
  const { ConversationSession } = await import('../../src/conversations/session.js');
  const { ConversationStore } = await import('../../src/conversations/store.js');
  const store = new ConversationStore(sandbox.env);
  ConversationSession.fresh(store, 'work').addTurn({ user: 'q', assistant: 'a' });
  ConversationSession.fresh(store, 'weekend').addTurn({ user: 'q', assistant: 'a' });
});
afterAll(() => sandbox.cleanup());

describe('completion scripts', () => {
  it.each(Object.keys(FILES) as Array<keyof typeof FILES>)('completions/%s is exactly what `svc completion` prints (run `npm run completions`)', async (shell) => {
    const result = await runSvc(['completion', shell], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(committed(shell));
  });

  it('every flag of every command is in every script', () => {
    const program = buildProgram({ factory: createFactory({ env: {} } as IO), signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) });
    const model = completionModel(program);
    expect(model.find((command) => command.path.join(' ') === 'image')?.flags.flatMap((flag) => flag.names)).toContain('--aspect');
    for (const command of model) {
      for (const flag of command.flags) {
        const long = flag.names.find((name) => name.startsWith('--'))!;
        for (const shell of Object.keys(FILES) as Array<keyof typeof FILES>) {
          const text = committed(shell);
          const name = shell === 'fish' ? `-l ${long.slice(2)}` : long;
          expect(text, `${shell}: ${command.path.join(' ')} ${long}`).toContain(name);
        }
      }
    }
  });

  it('an unknown shell is a usage error', async () => {
    const result = await runSvc(['completion', 'tcsh'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('tcsh');
  });
});

/** Complete `line` (the cursor at its end) with the committed bash script. */
const complete = (line: string): Promise<string[]> => bashComplete(line, sandbox.env, fileURLToPath(new URL('../..', import.meta.url)));

describe('bash completion, for real', () => {
  it.each([
    ['svc ', ['chat', 'image', 'batch', 'sessions', 'roles', 'models', 'render', 'auth', 'config', 'profiles', 'mcp', 'emulator', 'completion', 'help']],
    ['svc help a', ['auth']],
    ['svc ch', ['chat']],
    ['svc auth ', ['login', 'logout', 'status']],
    ['svc image --asp', ['--aspect']],
    ['svc image --aspect ', ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9']],
    ['svc image "a fox" --format w', ['webp']],
    ['svc image -m svc-vision --aspect 2', ['21:9']],
    ['svc config get ', ['baseUrl', 'timeout', 'maxRetries', 'model', 'imageModel', 'preview', 'render', 'imageInputMax', 'imageMetadata', 'streamUsage', 'keyCommand', 'params', 'tools', 'contextWindow', 'autoCompact', 'saveOneShots', 'prices.', 'contextWindow.']],
    ['svc completion ', ['bash', 'zsh', 'fish']],
    ['svc chat --session w', ['weekend', 'work']],
    ['svc sessions delete ', ['weekend', 'work']],
    ['svc chat --no-s', ['--no-stream', '--no-stdin', '--no-save']],
  ])('%j → %j', async (line, expected) => {
    expect((await complete(line)).sort()).toEqual([...expected].sort());
  });

  it('a value that is not a file offers its own values or nothing, never the file names bash falls back to', async () => {
    // A model id, a free-text system message, a file argument: files only for the last.
    expect(await complete('svc chat -m pa')).toEqual([]);
    expect(await complete('svc chat -s pa')).toEqual([]);
    expect(await complete('svc sessions show pa')).toEqual([]);
    // The repository's own files and folders (packages/ holds the emulator).
    expect((await complete('svc batch pa')).sort()).toEqual(['package-lock.json', 'package.json', 'packages']);
    expect((await complete('svc chat -f pa')).sort()).toEqual(['package-lock.json', 'package.json', 'packages']);
  });

  it('after a colon, only the rest of the value is offered (bash splits words at ":")', async () => {
    expect(await complete('svc image --aspect 16:')).toEqual(['9']);
  });
});

describe.skipIf(!hasZsh)('zsh completion', () => {
  it('is valid zsh', async () => {
    const result = await execa('zsh', ['-n', 'completions/_svc'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe.skipIf(!hasFish)('fish completion', () => {
  it('is valid fish', async () => {
    const result = await execa('fish', ['-n', 'completions/svc.fish'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), reject: false });
    expect(result.exitCode).toBe(0);
  });

  it.each([
    ['svc image --aspect ', ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9']],
    ['svc auth ', ['login', 'logout', 'status']],
    ['svc chat --session ', ['weekend', 'work']],
    // A command whose argument is a file (fish refuses -f with -F, and said so on every Tab).
    ['svc batch package', ['package.json', 'package-lock.json', 'packages/']],
  ])('%j completes for real, with nothing on stderr', async (line, expected) => {
    const bin = sandbox.home + '/bin';
    await execa('sh', ['-c', `mkdir -p "${bin}" && printf '#!/bin/sh\\nexec node "${SVC_BIN}" "$@"\\n' > "${bin}/svc" && chmod +x "${bin}/svc"`]);
    const result = await execa('fish', ['-c', `source completions/svc.fish; complete -C ${JSON.stringify(line)}`], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...sandbox.env, PATH: `${bin}:${sandbox.env.PATH}` },
      extendEnv: false,
    });
    const offered = result.stdout.split('\n').map((row) => row.split('\t')[0]).filter(Boolean);
    expect(offered.sort()).toEqual([...expected].sort());
    expect(result.stderr).toBe('');
  });
});
