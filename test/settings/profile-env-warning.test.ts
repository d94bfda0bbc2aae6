/**
 * `--profile NAME` typed while SVC_* variables override what that profile stores (issue 36,
 * item 6): the environment still wins (flag > environment > stored), and one line on stderr names
 * the variables. Not for SVC_PROFILE (the environment choosing the profile is the environment
 * too), nor for a variable over a setting the profile does not store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
const dryRun = (env: Record<string, string>, ...flags: string[]) => runSvc(['chat', ...flags, '--dry-run', 'hello'], sandbox, { env });
const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('svc: warning:'));

beforeAll(async () => {
  sandbox = makeSandbox();
  for (const args of [['config', 'set', '--profile', 'work', 'baseUrl', 'https://work.example.com'], ['config', 'set', '--profile', 'work', 'model', 'work-model']]) {
    expect((await runSvc(args, sandbox)).exitCode).toBe(0);
  }
  expect((await runSvc(['auth', 'login', '--profile', 'work', '--with-key', '--offline'], sandbox, { stdin: 'sk-work-key-0123456789' })).exitCode).toBe(0);
});
afterAll(() => sandbox.cleanup());

describe('--profile while the environment overrides it', () => {
  it('names the one variable that overrides a stored setting, and the environment still wins', async () => {
    const result = await dryRun({ SVC_BASE_URL: 'http://127.0.0.1:8080' }, '--profile', 'work');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(warnings(result.stderr)).toEqual(['svc: warning: SVC_BASE_URL in the environment overrides what the profile "work" stores (unset it to use the profile\'s)']);
    expect(result.stdout).toContain("'http://127.0.0.1:8080/v1/chat/completions'");
    expect(result.stdout).toContain('"model":"work-model"');
  });

  it('names them all in one line, the key among them', async () => {
    const result = await dryRun({ SVC_BASE_URL: 'http://127.0.0.1:8080', SVC_MODEL: 'env-model', SVC_API_KEY: 'sk-env-key-0123456789', SVC_TIMEOUT: '30' }, '--profile', 'work');
    expect(warnings(result.stderr)).toEqual(['svc: warning: SVC_BASE_URL, SVC_MODEL and SVC_API_KEY in the environment override what the profile "work" stores (unset them to use the profile\'s)']);
    expect(result.stdout).toContain('"model":"env-model"');
  });

  it('says nothing for SVC_PROFILE, for variables over settings it does not store, or without variables', async () => {
    for (const [env, flags] of [
      [{ SVC_PROFILE: 'work', SVC_BASE_URL: 'http://127.0.0.1:8080' }, []],
      [{ SVC_TIMEOUT: '30', SVC_IMAGE_MODEL: 'other' }, ['--profile', 'work']],
      [{}, ['--profile', 'work']],
    ] as const) {
      const result = await dryRun({ ...env }, ...flags);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(warnings(result.stderr)).toEqual([]);
    }
  });
});
