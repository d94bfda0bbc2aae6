/**
 * A stored setting of the wrong type or form is refused like a bad flag value (exit 2, nothing
 * sent), never turned into text ("a,b") and sent; the message names the setting and the file but
 * never quotes the value. Environment variables of the wrong form name the variable.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const COMPLETION = { id: 'c1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }] };
const MARKER = 'zq-marker-value';

// A chat that must reach the service scripts its one answer (`answered()`); one that must send
// nothing scripts none, so a request fails it.
const scripted = useScriptedServer();
const server = () => scripted.server;
const answered = () => server().script(reply.json(200, COMPLETION));
let sandbox: Sandbox;
const configFile = () => join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'config.json');
const store = (values: Record<string, unknown>) => {
  mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc'), { recursive: true });
  writeFileSync(configFile(), JSON.stringify(values));
};
const chat = (env: Record<string, string> = {}) =>
  runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox, { env: { SVC_BASE_URL: server().baseUrl, SVC_API_KEY: 'env-key-0123456789', ...env } });

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe('stored settings are checked like flags', () => {
  it.each([
    ['model', ['a', MARKER], /stored setting model \(in .*config\.json\) must be a JSON string; it is an array/],
    ['model', { id: MARKER }, /stored setting model .* must be a JSON string; it is an object/],
    ['model', 5, /stored setting model .* must be a JSON string; it is a number/],
    ['model', `two ${MARKER}`, /stored setting model .* must be a model id without spaces/],
    ['timeout', MARKER, /stored setting timeout .* must be a number from 0\.001 to 86400/],
    ['timeout', -1, /stored setting timeout .* must be a number from 0\.001 to 86400/],
    ['timeout', true, /stored setting timeout .* must be a JSON number; it is true/],
    ['maxRetries', 2.5, /stored setting maxRetries .* must be a whole number from 0 to 10/],
    ['baseUrl', `not a url ${MARKER}`, /stored setting baseUrl .* must be an http:\/\/ or https:\/\/ URL/],
    ['baseUrl', `ftp://${MARKER}`, /stored setting baseUrl .* must be an http:\/\/ or https:\/\/ URL/],
  ])('%s = %j: exit 2, nothing sent, the value not quoted', async (name, value, message) => {
    store({ [name]: value });
    // The base URL comes from the file in its own cases, so SVC_BASE_URL must not hide it.
    const result = await chat(name === 'baseUrl' ? { SVC_BASE_URL: '' } : {});
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(`svc config set ${name}`);
    expect(result.stderr).not.toContain(MARKER);
    expect(server().requests).toHaveLength(0);
  });

  it('a number setting stored as a string of digits (a hand edit) is read as the number', async () => {
    store({ timeout: '30', maxRetries: '0' });
    const list = await runSvc(['config', 'list'], sandbox);
    expect(list.stdout).toContain('timeout\t30\tstored');
    expect(list.stdout).toContain('maxRetries\t0\tstored');
  });

  it('config get refuses a wrong type instead of printing ["a","b"] as "a,b"', async () => {
    store({ model: ['a', 'b'] });
    const result = await runSvc(['config', 'get', 'model'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('must be a JSON string; it is an array');
  });

  it('a flag or variable that overrides a bad stored value makes it harmless', async () => {
    store({ model: ['a', 'b'] });
    answered();
    const result = await chat({ SVC_MODEL: 'svc-pro' });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(server().requests[0]!.body)).toMatchObject({ model: 'svc-pro' });
  });

  it('a bad value of a setting the command does not use does not stop it', async () => {
    store({ imageModel: ['x'] });
    answered();
    const result = await chat({ SVC_IMAGE_MODEL: 'not valid either' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('hello\n');
  });
});

describe('environment variables of the wrong form', () => {
  it.each([
    ['SVC_TIMEOUT', 'abc', 'must be a number'],
    ['SVC_TIMEOUT', '-1', 'must be a number'],
    ['SVC_MAX_RETRIES', 'many', 'must be a whole number'],
    ['SVC_MODEL', 'two words', 'must be a model id'],
    ['SVC_BASE_URL', 'localhost:8080', 'must be an http:// or https:// URL'],
  ])('%s=%j names the variable, exit 2, nothing sent', async (variable, value, words) => {
    const result = await chat({ [variable]: value });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${variable} ${words}`);
    expect(server().requests).toHaveLength(0);
  });
});
