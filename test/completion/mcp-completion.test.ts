/**
 * Completions know MCP servers: `svc mcp remove`, `svc mcp tools` and the values of `svc chat
 * --tools` and `--allow` complete the names of the profile's servers (from `svc mcp list`), in bash
 * for real; `svc mcp import` completes files.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashComplete } from '../helpers/bash-complete.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasFish = (await execa('fish', ['-c', 'exit 0'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = makeSandbox();
  for (const name of ['notes', 'demo', 'docs']) expect((await runSvc(['mcp', 'add', name, '--', 'some-server'], sandbox)).exitCode).toBe(0);
});
afterAll(() => sandbox.cleanup());

const complete = (line: string): Promise<string[]> => bashComplete(line, sandbox.env, root);

/** What fish offers for `line` (`complete -C`), with `svc` running the built binary. */
async function fishComplete(line: string): Promise<string[]> {
  const script = `function svc; "${process.execPath}" "${SVC_BIN}" $argv; end; source completions/svc.fish; complete -C ${JSON.stringify(line)}`;
  const result = await execa('fish', ['--no-config', '-c', script], { cwd: root, env: sandbox.env, extendEnv: false });
  return result.stdout.split('\n').filter((each) => each !== '').map((each) => each.split('\t')[0]!);
}

describe('MCP server completions', () => {
  it.each([
    ['svc mcp ', ['add', 'list', 'remove', 'tools', 'import']],
    ['svc mcp remove ', ['demo', 'docs', 'notes']],
    ['svc mcp remove d', ['demo', 'docs']],
    ['svc mcp tools n', ['notes']],
    ['svc chat --tools ', ['demo', 'docs', 'notes']],
    ['svc chat --tools d', ['demo', 'docs']],
    ['svc chat --tools notes --allow n', ['notes']],
  ])('bash: %j offers %j', async (line, expected) => {
    expect((await complete(line)).sort()).toEqual([...expected].sort());
  });

  it.skipIf(!hasFish).each([
    ['svc chat --tools ', ['demo', 'docs', 'notes']],
    ['svc chat --allow d', ['demo', 'docs']],
  ])('fish: %j offers %j', async (line, expected) => {
    expect((await fishComplete(line)).sort()).toEqual([...expected].sort());
  });
});
