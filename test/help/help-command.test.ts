/**
 * `svc help [command...]` and `svc -v`, as users of gh and npm expect: the help subcommand gives
 * the same page as `--help`, both in-process (commander) and from the launcher's prebuilt pages.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { launcherAnswers, makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };

let sandbox: Sandbox;
/** What the launcher answers to each of these lines, all run in one process. */
const LAUNCHED = [['help', 'auth', 'login'], ['-v'], ['-V'], ['--version']];
let launched: Map<string, string>;
beforeAll(async () => {
  sandbox = makeSandbox();
  const answers = await launcherAnswers(LAUNCHED, sandbox);
  launched = new Map(LAUNCHED.map((words, i) => [words.join(' '), answers[i]!]));
});
afterAll(() => sandbox.cleanup());

describe('svc help', () => {
  it.each([[[]], [['chat']], [['auth', 'login']], [['config', 'set']], [['help']]])('svc help %j prints the page of --help, exit 0', async (words) => {
    const help = await runSvc(['help', ...words], sandbox);
    const flag = await runSvc([...words, '--help'], sandbox);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: svc/);
    expect(help.stdout).toBe(flag.stdout);
    expect(help.stderr).toBe('');
  });

  it('an unknown command is a usage error naming it and the commands there are', async () => {
    const result = await runSvc(['help', 'auth', 'nope'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown command "auth nope"');
    expect(result.stderr).toContain('login, logout, status');
    expect(result.stdout).toBe('');
  });

  it('is listed in the root help', async () => {
    expect((await runSvc(['--help'], sandbox)).stdout).toMatch(/\n {2}help \[command\.\.\.\] +show help for a command\n/);
  });

  it('the launcher answers `svc help auth login` from the prebuilt page, identical to --help', async () => {
    expect(launched.get('help auth login')).toBe((await runSvc(['auth', 'login', '--help'], sandbox)).stdout);
  });
});

describe('svc -v', () => {
  it.each(['-v', '-V', '--version'])('%s prints the version, in-process and through the launcher', async (flag) => {
    const inProcess = await runSvc([flag], sandbox);
    expect(inProcess.exitCode).toBe(0);
    expect(inProcess.stdout).toBe(`${version}\n`);
    expect(launched.get(flag)).toBe(`${version}\n`);
  });

  it('the root help shows -v, --version', async () => {
    expect((await runSvc(['--help'], sandbox)).stdout).toContain('-v, --version');
  });
});
