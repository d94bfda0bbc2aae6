/**
 * On/off settings read the words a person types: on/off, true/false, yes/no, 1/0, in any case,
 * from `svc config set`, from their variables and from the file alike (one parser), and are
 * stored and listed as "on" or "off"; any other word is exit 2 naming the accepted ones. A file
 * written in another spelling, or by hand with JSON true/false, still reads.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseOnOff } from '../../src/core/parse-values.js';
import { settingDefinitions, settingNames } from '../../src/settings/definitions.js';
import { plainWanted, type IO } from '../../src/terminal/io.js';
import { debugEnabled } from '../../src/terminal/report-error.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const SWITCHES = settingNames.filter((name) => settingDefinitions[name].stores === 'switch');
const WORDS: Array<[string, 'on' | 'off']> = [
  ['on', 'on'],
  ['OFF', 'off'],
  ['true', 'on'],
  ['False', 'off'],
  ['YES', 'on'],
  ['no', 'off'],
  ['1', 'on'],
  [' 0 ', 'off'],
];

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const configFile = (): string => join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'config.json');
const stored = (): Record<string, unknown> => JSON.parse(readFileSync(configFile(), 'utf8')) as Record<string, unknown>;
const listed = async (env: Record<string, string> = {}): Promise<string> => (await runSvc(['config', 'list'], sandbox, { env: { ...sandbox.env, ...env } })).stdout;

describe('the on/off settings', () => {
  it('are the three switches, each read by the one parser', () => {
    expect(SWITCHES).toEqual(['imageMetadata', 'streamUsage', 'saveOneShots']);
    for (const name of SWITCHES) expect(settingDefinitions[name].parse, name).toBe(parseOnOff);
  });

  it.each(SWITCHES)('%s: svc config set takes every word, in any case, and stores on or off', async (name) => {
    for (const [word, value] of WORDS) {
      const result = await runSvc(['config', 'set', name, word], sandbox);
      expect([result.exitCode, result.stderr], word).toEqual([0, '']);
      expect(stored()[name], word).toBe(value);
      expect(await listed(), word).toContain(`${name}\t${value}\tstored\n`);
    }
  });

  it.each(SWITCHES)('%s: its variable takes every word too, listed as on or off', async (name) => {
    const variable = settingDefinitions[name].env;
    for (const [word, value] of WORDS) {
      expect(await listed({ [variable]: word }), word).toContain(`${name}\t${value}\tenv\n`);
      expect((await runSvc(['config', 'get', name], sandbox, { env: { ...sandbox.env, [variable]: word } })).stdout).toBe(`${value}\n`);
    }
  });

  it.each(SWITCHES)('%s: any other word is exit 2 naming the accepted ones, and nothing is stored', async (name) => {
    const refused = await runSvc(['config', 'set', name, 'enabled'], sandbox);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${name} must be one of on, off, true, false, yes, no, 1, 0 (in any case); got "enabled"`);
    expect(refused.stdout).toBe('');
    expect((await runSvc(['config', 'get', '--stored', name], sandbox)).exitCode).toBe(1);
    const variable = settingDefinitions[name].env;
    const fromEnv = await runSvc(['config', 'get', name], sandbox, { env: { ...sandbox.env, [variable]: 'sometimes' } });
    expect(fromEnv.exitCode).toBe(2);
    expect(fromEnv.stderr).toContain(`${variable} must be one of on, off, true, false, yes, no, 1, 0 (in any case); got "sometimes"`);
  });

  it('a file in another spelling, or with JSON true and false, still reads (and is listed as on or off)', async () => {
    mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc'), { recursive: true });
    writeFileSync(configFile(), JSON.stringify({ imageMetadata: 'No', streamUsage: false, saveOneShots: true }));
    const list = await listed();
    expect(list).toContain('imageMetadata\toff\tstored\n');
    expect(list).toContain('streamUsage\toff\tstored\n');
    expect(list).toContain('saveOneShots\ton\tstored\n');
    expect((await runSvc(['config', 'get', '--stored', 'streamUsage'], sandbox)).stdout).toBe('off\n');
  });

  it('a stored word that is none of them is exit 2 naming the setting and the words, never quoting the file', async () => {
    mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc'), { recursive: true });
    writeFileSync(configFile(), JSON.stringify({ streamUsage: 'sk-secret-ish' }));
    const result = await runSvc(['config', 'get', 'streamUsage'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('the stored setting streamUsage');
    expect(result.stderr).toContain('must be one of on, off, true, false, yes, no, 1, 0');
    expect(result.stderr).not.toContain('sk-secret-ish');
  });

  it('JSON true is still refused for a setting that is not a switch', async () => {
    mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc'), { recursive: true });
    writeFileSync(configFile(), JSON.stringify({ render: true }));
    const result = await runSvc(['config', 'get', 'render'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('must be a JSON string; it is true');
  });
});

describe('SVC_PLAIN and SVC_DEBUG read the same words', () => {
  it.each(WORDS)('SVC_PLAIN=%j → plain %s', (word, value) => {
    expect(plainWanted({ SVC_PLAIN: word })).toBe(value === 'on');
  });

  it('SVC_PLAIN set to any other word still asks for plain mode (it never stops a command); empty does not', () => {
    expect(plainWanted({ SVC_PLAIN: 'please' })).toBe(true);
    expect(plainWanted({ SVC_PLAIN: '' })).toBe(false);
    expect(plainWanted({})).toBe(false);
  });

  it.each(WORDS)('SVC_DEBUG=%j → debug %s', (word, value) => {
    expect(debugEnabled({ env: { SVC_DEBUG: word } } as unknown as IO)).toBe(value === 'on');
  });

  it('SVC_DEBUG set to another word, or unset, is off', () => {
    expect(debugEnabled({ env: { SVC_DEBUG: 'verbose' } } as unknown as IO)).toBe(false);
    expect(debugEnabled({ env: {} } as unknown as IO)).toBe(false);
  });
});
