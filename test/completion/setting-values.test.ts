/**
 * Completion of values (issue 26, item 6): `svc config set KEY <Tab>` offers the values KEY takes
 * (choices, on/off, the models `svc models` last listed) and `svc config set <Tab>` the names, in
 * bash, zsh and fish, through the hidden `svc config choices` the scripts call.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settingNames } from '../../src/settings/definitions.js';
import { bashComplete } from '../helpers/bash-complete.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasShell = async (shell: string): Promise<boolean> => (await execa(shell, ['-c', 'exit 0'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const [hasZsh, hasFish] = await Promise.all([hasShell('zsh'), hasShell('fish')]);

let sandbox: Sandbox;
let bin: string;
let answers: string;
beforeAll(async () => {
  sandbox = makeSandbox({ SVC_BASE_URL: 'http://127.0.0.1:9' });
  // What `svc models` keeps for completion: the ids, for this base URL.
  mkdirSync(join(sandbox.home, 'cache', 'svc'), { recursive: true });
  writeFileSync(join(sandbox.home, 'cache', 'svc', 'models.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:9', ids: ['svc-pro', 'svc-mini'] }));
  // The scripts' `svc config choices [NAME]`, answered by main() here, once each, and replayed to
  // the shells by a stand-in `svc` on PATH: what is tested is the scripts and what svc prints, and
  // a Node start-up per Tab would add neither (completion.test.ts runs the scripts against the
  // real binary). A call the stand-in was not given fails the case (afterEach).
  answers = join(sandbox.home, 'answers');
  mkdirSync(answers);
  // `set` too: at `svc config set <Tab>` the scripts ask about the word before, and svc answers
  // a word that names no setting with nothing.
  for (const words of [['config', 'choices'], ['config', 'choices', 'set'], ...settingNames.map((name) => ['config', 'choices', name])]) {
    const result = await runSvc(words, sandbox);
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    writeFileSync(join(answers, words.join(' ')), result.stdout);
  }
  bin = join(sandbox.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\n[ -f "${answers}/$*" ] && exec cat "${answers}/$*"\necho "$*" >> "${answers}/unexpected"\nexit 1\n`, { mode: 0o755 });
});
afterEach(() => {
  const unexpected = join(answers, 'unexpected');
  const calls = existsSync(unexpected) ? readFileSync(unexpected, 'utf8') : '';
  rmSync(unexpected, { force: true });
  expect(calls, 'svc called with words it was not given').toBe('');
});
afterAll(() => sandbox?.cleanup());

const CASES: Array<[string, string[]]> = [
  ['svc config set ', [...settingNames, 'prices.', 'contextWindow.']],
  ['svc config set render ', ['auto', 'raw']],
  ['svc config set imageMetadata ', ['on', 'off']],
  ['svc config set preview ', ['auto', 'kitty', 'iterm', 'sixel', 'blocks', 'none']],
  ['svc config set model ', ['svc-pro', 'svc-mini']],
];

describe('svc config choices', () => {
  it('prints the names, or the values of one, and nothing (exit 0) for free text or an unknown name', async () => {
    expect((await runSvc(['config', 'choices', 'saveOneShots'], sandbox)).stdout).toBe('on\noff\n');
    expect((await runSvc(['config', 'choices'], sandbox)).stdout.trim().split('\n')).toEqual([...settingNames, 'prices.', 'contextWindow.']);
    for (const key of ['timeout', 'nope']) {
      const result = await runSvc(['config', 'choices', key], sandbox);
      expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, '', '']);
    }
    expect((await runSvc(['config', '--help'], sandbox)).stdout).not.toContain('choices');
  });
});

describe('bash', () => {
  it.each(CASES)('%j → %j', async (line, expected) => {
    expect((await bashComplete(line, sandbox.env, root, join(bin, 'svc'))).sort()).toEqual([...expected].sort());
  });
});

describe.skipIf(!hasFish)('fish', () => {
  it.each(CASES)('%j → %j', async (line, expected) => {
    const result = await execa('fish', ['-c', `source completions/svc.fish; complete -C ${JSON.stringify(line)}`], { cwd: root, env: { ...sandbox.env, PATH: `${bin}:${sandbox.env.PATH}` }, extendEnv: false });
    expect(result.stdout.split('\n').map((row) => row.split('\t')[0]).filter(Boolean).sort()).toEqual([...expected].sort());
  });
});

describe.skipIf(!hasZsh)('zsh', () => {
  // The script's own helper, run with _describe standing in for the completion system.
  it.each(CASES)('%j → %j', async (line, expected) => {
    const words = line.trimEnd().split(' ').slice(2); // after `svc config`, as _arguments' ->args hands them on
    const script = `
      _arguments() { return 0 }
      # Each group of candidates (an array's name, its compadd options, -- before the next): the names.
      _describe() { shift 3; local name; while (( $# )); do for name in \${(P)1}; do print -r -- "\${name%%:*}"; done; shift; while (( $# )) && [[ $1 != -- ]]; do shift; done; (( $# )) && shift; done }
      source completions/_svc
      words=(${words.map((word) => `'${word}'`).join(' ')} '')
      CURRENT=\${#words}
      _svc_setting_choices`;
    const result = await execa('zsh', ['-fc', script], { cwd: root, env: { ...sandbox.env, PATH: `${bin}:${sandbox.env.PATH}` }, extendEnv: false, reject: false });
    expect(result.stdout.split('\n').filter(Boolean).sort(), result.stderr).toEqual([...expected].sort());
  });
});
