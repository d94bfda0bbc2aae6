/**
 * Tab offers models before any `svc models` has run: the service's documented ones, those set in
 * any profile, in the environment and by roles, and the ids kept for the service in use; chat
 * models for `svc chat -m`, image models for `svc image -m`. Conversation names come with their
 * first line in zsh and fish, `svc config set <Tab>` offers `prices.` (no space after it), and no
 * completion makes a request: every shell here is pointed at a server that counts connections.
 * Real bash, fish (`complete -C`) and zsh (in tmux, through its completion system).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConversationSession } from '../../src/conversations/session.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { bashComplete } from '../helpers/bash-complete.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable, type TmuxSession } from '../helpers/tmux.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasShell = async (shell: string): Promise<boolean> => (await execa(shell, ['-c', 'exit 0'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const [hasZsh, hasFish, hasTmux] = await Promise.all([hasShell('zsh'), hasShell('fish'), tmuxAvailable()]);

/** What the set-up sandbox offers: chat models (the kept ids among them, less the image ones) and image models. */
const CHAT = ['svc-pro', 'env-model', 'gpt-4.1', 'llama3:8b', 'svc-mini', 'gpt-image-1'];
const IMAGE = ['svc-vision', 'dall-e-3'];

let server: ScriptedServer;
/** Nothing set: a first install. */
let fresh: Sandbox;
/** Models set in two profiles, the environment and a role; a model list kept for the service. */
let set: Sandbox;

/** `svc` on PATH for the shells: the built binary. */
function withSvcOnPath(sandbox: Sandbox): void {
  const bin = join(sandbox.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${SVC_BIN}" "$@"\n`);
  chmodSync(join(bin, 'svc'), 0o755);
  sandbox.env.PATH = `${bin}:${sandbox.env.PATH}`;
}

beforeAll(async () => {
  server = await startScriptedServer();
  fresh = makeSandbox({ SVC_BASE_URL: server.baseUrl });
  set = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_MODEL: 'env-model' });
  for (const sandbox of [fresh, set]) withSvcOnPath(sandbox);
  for (const words of [
    ['config', 'set', 'imageModel', 'dall-e-3'],
    ['config', 'set', '--profile', 'work', 'model', 'gpt-4.1'],
    ['roles', 'set', 'local', '--system', 'be brief', '-m', 'llama3:8b'],
    ['config', 'set', 'prices.svc-mini', '0.1/0.4'],
    ['config', 'set', 'contextWindow.svc-mini', '32768'],
  ]) {
    expect((await runSvc(words, set)).exitCode, words.join(' ')).toBe(0);
  }
  // What `svc models` keeps: the ids the service listed, one of them no id a terminal should print.
  mkdirSync(join(set.env.XDG_CACHE_HOME!, 'svc'), { recursive: true });
  const ids = ['svc-pro', 'svc-mini', 'svc-vision', 'gpt-image-1', 'evil\u001b]0;pwned\u0007'];
  writeFileSync(join(set.env.XDG_CACHE_HOME!, 'svc', 'models.json'), JSON.stringify({ baseUrl: server.baseUrl, ids }));
  const store = new ConversationStore(set.env);
  ConversationSession.fresh(store, 'work').addTurn({ user: 'how do I rotate the logs?\nand keep a week', assistant: 'a' });
  ConversationSession.fresh(store, 'odd').addTurn({ user: 'a \u001b[31mred\u001b[0m word, a back\\slash and a: colon', assistant: 'a' });
});
afterEach(() => {
  // Completing reads files only: not one connection to the service, whatever was completed.
  expect(server.connections().total).toBe(0);
});
afterAll(async () => {
  await server?.close();
  fresh?.cleanup();
  set?.cleanup();
});

const bash = (line: string, sandbox: Sandbox): Promise<string[]> => bashComplete(line, sandbox.env, root, join(sandbox.home, 'bin', 'svc'));

async function fish(line: string, sandbox: Sandbox): Promise<string[]> {
  const result = await execa('fish', ['--no-config', '-c', `source completions/svc.fish; complete -C ${JSON.stringify(line)}`], { cwd: root, env: sandbox.env, extendEnv: false });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean);
}
const names = (rows: string[]): string[] => rows.map((row) => row.split('\t')[0]!).sort();

describe('svc config choices model|imageModel (what the scripts ask)', () => {
  it('a fresh install: the documented models, chat and image apart', async () => {
    expect((await runSvc(['config', 'choices', 'model'], fresh)).stdout).toBe('svc-pro\n');
    expect((await runSvc(['config', 'choices', 'imageModel'], fresh)).stdout).toBe('svc-vision\n');
  });

  it('every source, each id once; the kept image model and an id with a control character left out', async () => {
    expect((await runSvc(['config', 'choices', 'model'], set)).stdout.split('\n').filter(Boolean)).toEqual(CHAT);
    expect((await runSvc(['config', 'choices', 'imageModel'], set)).stdout.split('\n').filter(Boolean)).toEqual(IMAGE);
  });

  it('the kept list of another service is not offered', async () => {
    const other = await runSvc(['config', 'choices', 'model'], set, { env: { ...set.env, SVC_BASE_URL: 'http://127.0.0.1:9' } });
    expect(other.stdout.split('\n').filter(Boolean)).toEqual(['svc-pro', 'env-model', 'gpt-4.1', 'llama3:8b']);
  });

  it('a model setting that is not valid somewhere costs only that model (and says nothing)', async () => {
    const broken = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_IMAGE_MODEL: 'two words' });
    try {
      mkdirSync(join(broken.env.XDG_CONFIG_HOME!, 'svc', 'profiles', 'bad'), { recursive: true });
      writeFileSync(join(broken.env.XDG_CONFIG_HOME!, 'svc', 'profiles', 'bad', 'config.json'), '{"model": ["a"]');
      writeFileSync(join(broken.env.XDG_CONFIG_HOME!, 'svc', 'config.json'), JSON.stringify({ model: 'mine', imageModel: 5 }));
      const chat = await runSvc(['config', 'choices', 'model'], broken);
      expect([chat.exitCode, chat.stdout]).toEqual([0, 'svc-pro\nmine\n']);
      const image = await runSvc(['config', 'choices', 'imageModel'], broken);
      expect([image.exitCode, image.stdout]).toEqual([0, 'svc-vision\n']);
    } finally {
      broken.cleanup();
    }
  });
});

describe('bash', () => {
  it.each([
    ['svc chat -m ', 'fresh', ['svc-pro']],
    ['svc image -m ', 'fresh', ['svc-vision']],
    ['svc config set model ', 'fresh', ['svc-pro']],
    ['svc chat -m ', 'set', CHAT],
    ['svc batch in.jsonl -m ', 'set', CHAT],
    ['svc image -m ', 'set', IMAGE],
    ['svc config set imageModel ', 'set', IMAGE],
    ['svc chat -m gpt', 'set', ['gpt-4.1', 'gpt-image-1']],
  ] as const)('%j (%s) → %j', async (line, which, expected) => {
    expect((await bash(line, which === 'fresh' ? fresh : set)).sort()).toEqual([...expected].sort());
  });

  it('conversation names alone (bash shows no descriptions), and the keys with prices. and the prices set, contextWindow. and the windows set', async () => {
    expect((await bash('svc sessions show ', set)).sort()).toEqual(['odd', 'work']);
    expect((await bash('svc config set pr', set)).sort()).toEqual(['preview', 'prices.', 'prices.svc-mini']);
    expect((await bash('svc config unset pri', set)).sort()).toEqual(['prices.', 'prices.svc-mini']);
    expect((await bash('svc config set cont', set)).sort()).toEqual(['contextWindow', 'contextWindow.', 'contextWindow.svc-mini']);
    expect((await bash('svc config unset contextWindow.', set)).sort()).toEqual(['contextWindow.', 'contextWindow.svc-mini']);
  });
});

describe.skipIf(!hasFish)('fish', () => {
  it.each([
    ['svc chat -m ', 'fresh', ['svc-pro']],
    ['svc image -m ', 'fresh', ['svc-vision']],
    ['svc chat -m ', 'set', CHAT],
    ['svc image -m ', 'set', IMAGE],
    ['svc config set imageModel ', 'set', IMAGE],
  ] as const)('%j (%s) → %j', async (line, which, expected) => {
    expect(names(await fish(line, which === 'fresh' ? fresh : set))).toEqual([...expected].sort());
  });

  it('conversation names come with their first line, made harmless, as the description', async () => {
    expect((await fish('svc sessions show ', set)).sort()).toEqual(['odd\ta ␛[31mred␛[0m word, a back\\slash and a: colon', 'work\thow do I rotate the logs?']);
  });
});

describe('the first lines given to the shells', () => {
  it('never carry a control character, in a pipe too (the shell prints them to the terminal)', async () => {
    const result = await runSvc(['sessions', 'list', '--for-completion'], set);
    expect(result.stdout).toContain('odd\ta ␛[31mred␛[0m word');
    expect(result.stdout).not.toContain('\u001b');
    expect((await runSvc(['sessions', 'list', '--help'], set)).stdout).not.toContain('--for-completion');
  });
});

/**
 * The shell's interactive line in tmux, with svc's completion loaded as a user loads it; `line`
 * typed and Tab pressed. The caller waits for what it expects on the screen.
 */
async function tabIn(shell: 'bash' | 'zsh' | 'fish', sandbox: Sandbox, line: string): Promise<TmuxSession> {
  const rc = join(sandbox.home, `rc-${shell}`);
  mkdirSync(rc, { recursive: true });
  let command: string;
  if (shell === 'zsh') {
    writeFileSync(join(rc, '.zshrc'), `fpath=(${join(root, 'completions')} $fpath)\nautoload -U compinit && compinit -u -d ${join(rc, 'zcompdump')}\nPS1='ready> '\n`);
    command = `ZDOTDIR=${rc} zsh --no-globalrcs -i`;
  } else if (shell === 'fish') {
    command = `fish --no-config -C 'source ${join(root, 'completions', 'svc.fish')}; function fish_prompt; echo "ready> "; end'`;
  } else {
    writeFileSync(join(rc, 'bashrc'), `source ${join(root, 'completions', 'svc.bash')}\nPS1='ready> '\n`);
    command = `bash --rcfile ${join(rc, 'bashrc')} -i`;
  }
  const term = await startTmux(command, sandbox.env, sandbox.home);
  await term.waitFor('ready> ');
  await term.type(line);
  await term.press('Tab');
  return term;
}

describe.skipIf(!hasTmux)('in a terminal', () => {
  describe.skipIf(!hasZsh)('zsh, through its completion system', () => {
    it.each([
      ['svc chat -m ', 'fresh', ['svc-pro'], ['svc-vision']],
      ['svc image -m ', 'fresh', ['svc-vision'], ['svc-pro']],
      ['svc chat -m ', 'set', CHAT, ['svc-vision', 'dall-e-3', 'evil']],
      ['svc image -m ', 'set', IMAGE, ['svc-pro', 'gpt-image-1']],
    ] as const)('%j (%s) offers %j and not %j', async (line, which, offered, not) => {
      const term = await tabIn('zsh', which === 'fresh' ? fresh : set, line);
      try {
        // One candidate is put on the line; several are listed under it, all at once.
        let screen = '';
        for (const id of offered) screen = await term.waitFor(id);
        for (const id of not) expect(screen).not.toContain(id);
      } finally {
        await term.kill();
      }
    });

    it('conversation names with their first line, a backslash and a colon in it kept as typed', async () => {
      const term = await tabIn('zsh', set, 'svc sessions show ');
      try {
        const screen = await term.waitFor(/work\s+-- how do I rotate the logs\?/);
        expect(screen).toMatch(/odd\s+-- a ␛\[31mred␛\[0m word, a back\\slash and a: colon/);
      } finally {
        await term.kill();
      }
    });
  });

  // prices. goes on with a model id: the shell must not put a space after it.
  const shells = (['bash', 'zsh', 'fish'] as const).filter((shell) => shell === 'bash' || (shell === 'zsh' ? hasZsh : hasFish));
  it.each(shells)('%s: svc config set pri<Tab> gives prices. with no space after it', async (shell) => {
    const term = await tabIn(shell, fresh, 'svc config set pri');
    try {
      await term.waitFor('svc config set prices.');
      await term.type('svc-pro');
      await term.waitFor('svc config set prices.svc-pro');
    } finally {
      await term.kill();
    }
  });
});
