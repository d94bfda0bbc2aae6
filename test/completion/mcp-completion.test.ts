/**
 * Completions know MCP servers: `svc mcp remove` and `svc mcp tools` complete the names of the
 * profile's servers (from `svc mcp list`), in bash for real; `svc mcp import` completes files.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashComplete } from '../helpers/bash-complete.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = makeSandbox();
  for (const name of ['notes', 'demo', 'docs']) expect((await runSvc(['mcp', 'add', name, '--', 'some-server'], sandbox)).exitCode).toBe(0);
});
afterAll(() => sandbox.cleanup());

const complete = (line: string): Promise<string[]> => bashComplete(line, sandbox.env, fileURLToPath(new URL('../..', import.meta.url)));

describe('MCP server completions', () => {
  it.each([
    ['svc mcp ', ['add', 'list', 'remove', 'tools', 'import']],
    ['svc mcp remove ', ['demo', 'docs', 'notes']],
    ['svc mcp remove d', ['demo', 'docs']],
    ['svc mcp tools n', ['notes']],
  ])('bash: %j offers %j', async (line, expected) => {
    expect((await complete(line)).sort()).toEqual([...expected].sort());
  });
});
