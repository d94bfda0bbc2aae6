/**
 * `svc config get KEY` prints the value in effect, wherever it comes from (the environment, the
 * stored setting of the profile in use, the default), as `svc config list` shows it; `--stored`
 * the stored value alone. Exit 1, nothing printed, when there is no value.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingNames } from '../../src/settings/definitions.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const get = (words: string[], env: Record<string, string> = {}) => runSvc(['config', 'get', ...words], sandbox, { env: { ...sandbox.env, ...env } });

describe('svc config get', () => {
  it('the default, then the stored value, then the environment: the one in effect each time', async () => {
    expect((await get(['timeout'])).stdout).toBe('120\n');
    expect((await runSvc(['config', 'set', 'timeout', '30'], sandbox)).exitCode).toBe(0);
    expect((await get(['timeout'])).stdout).toBe('30\n');
    expect((await get(['timeout'], { SVC_TIMEOUT: '5' })).stdout).toBe('5\n');
    // --stored: what is stored, whatever the environment says.
    expect((await get(['--stored', 'timeout'], { SVC_TIMEOUT: '5' })).stdout).toBe('30\n');
  });

  it('prints for every setting what config list prints as its value', async () => {
    const env = { SVC_MODEL: 'env-model', SVC_RENDER: 'RAW', SVC_BASE_URL: 'https://api.example.com/' };
    expect((await runSvc(['config', 'set', 'maxRetries', '4'], sandbox)).exitCode).toBe(0);
    const list = (await runSvc(['config', 'list'], sandbox, { env: { ...sandbox.env, ...env } })).stdout;
    for (const name of settingNames) {
      const value = list.split('\n').find((line) => line.startsWith(`${name}\t`))!.split('\t')[1]!;
      const result = await get([name], env);
      expect([result.exitCode, result.stdout], name).toEqual(value === '' ? [1, ''] : [0, `${value}\n`]);
    }
  });

  it('no value anywhere, or none stored with --stored: exit 1 and nothing printed', async () => {
    for (const words of [['baseUrl'], ['--stored', 'model'], ['prices.svc-pro']]) {
      const result = await get(words);
      expect([result.exitCode, result.stdout, result.stderr], words.join(' ')).toEqual([1, '', '']);
    }
  });

  it('a value in effect that is not valid is exit 2 naming where it came from; --stored still prints the stored one', async () => {
    expect((await runSvc(['config', 'set', 'timeout', '30'], sandbox)).exitCode).toBe(0);
    const result = await get(['timeout'], { SVC_TIMEOUT: 'soon' });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('SVC_TIMEOUT must be a number');
    expect((await get(['--stored', 'timeout'], { SVC_TIMEOUT: 'soon' })).stdout).toBe('30\n');
  });

  it('the profile in use: --profile and SVC_PROFILE choose whose stored value is in effect', async () => {
    expect((await runSvc(['config', 'set', '--profile', 'work', 'model', 'work-model'], sandbox)).exitCode).toBe(0);
    expect((await get(['model'])).stdout).toBe('svc-pro\n');
    expect((await get(['model', '--profile', 'work'])).stdout).toBe('work-model\n');
    expect((await get(['model'], { SVC_PROFILE: 'work' })).stdout).toBe('work-model\n');
  });

  it('config --help lists prices.MODEL among the keys, and get --help says --stored', async () => {
    expect((await runSvc(['config', '--help'], sandbox)).stdout).toMatch(/Keys: baseUrl, .*saveOneShots, prices\.MODEL/);
    expect((await runSvc(['config', 'get', '--help'], sandbox)).stdout).toContain('--stored');
  });
});
