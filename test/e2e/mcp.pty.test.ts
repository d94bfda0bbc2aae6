/**
 * `svc mcp` at a terminal (tmux, the built binary): the listings are tables with a header, cut to
 * the width, while the same commands in a pipe print tab-separated lines; `svc mcp remove` asks
 * first, and "no" keeps the server.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILESYSTEM_SERVER } from '../helpers/mcp-servers.js';
import { makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const svcLine = (args: string): string => `node "${SVC_BIN}" ${args}`;

describe.skipIf(!hasTmux)('svc mcp on a terminal', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = makeSandbox();
    mkdirSync(join(sandbox.home, 'notes'));
    expect((await svc(['mcp', 'add', 'notes', '--', process.execPath, FILESYSTEM_SERVER, join(sandbox.home, 'notes')], sandbox)).exitCode).toBe(0);
    expect((await svc(['mcp', 'add', 'demo', '--env', 'LOG_LEVEL=debug', '--', 'mcp-server-everything'], sandbox)).exitCode).toBe(0);
  });
  afterAll(() => sandbox?.cleanup());

  it('mcp list: a table with a header; piped, tab-separated lines', async () => {
    const term = await startTmux(`${svcLine('mcp list')}; ${svcLine('mcp ls')} | sed -n l`, sandbox.env, sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]');
      const lines = screen.split('\n');
      expect(lines.slice(0, 3)).toEqual([
        'NAME   TRANSPORT  ENV/HEADERS  COMMAND OR URL',
        // The long command line is cut to the terminal's 100 columns.
        expect.stringMatching(new RegExp(`^notes  stdio      -            ${process.execPath} \\S+…$`)),
        'demo   stdio      LOG_LEVEL    mcp-server-everything',
      ]);
      expect(lines[1]).toHaveLength(100);
      expect(screen).toContain('demo\\tstdio\\tmcp-server-everything\\tLOG_LEVEL$');
    } finally {
      await term.kill();
    }
  }, 30_000);

  it('mcp tools: each tool with READ-ONLY yes or no, the description cut to the width', async () => {
    const term = await startTmux(svcLine('mcp tools notes'), sandbox.env, sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]', 20_000);
      expect(screen).toMatch(/^TOOL {23}READ-ONLY {2}DESCRIPTION\n/m);
      expect(screen).toMatch(/^read_text_file {13}yes {8}Read the complete contents of a file from the file sys[^\n]*…\n/m);
      expect(screen).toMatch(/^write_file {17}no {9}Create a new file/m);
      for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    } finally {
      await term.kill();
    }
  }, 30_000);

  it('mcp remove asks first: n keeps the server (exit 1), y removes it', async () => {
    const term = await startTmux(`${svcLine('mcp remove demo')}; echo "[first $?]"; ${svcLine('mcp rm demo')}`, sandbox.env, sandbox.home);
    try {
      await term.waitFor('Delete the MCP server demo? (y/N)');
      await term.type('n', true);
      await term.waitFor('[first 1]');
      expect(await term.screen()).toContain('svc: nothing was deleted');
      expect((await svc(['mcp', 'list'], sandbox)).stdout).toContain('demo\tstdio');
      await term.waitFor(/\[first 1\][\s\S]*Delete the MCP server demo\? \(y\/N\)/);
      await term.type('y', true);
      await term.waitFor('[exit 0]');
      expect(await term.screen()).toContain('svc: removed the MCP server "demo"');
      expect((await svc(['mcp', 'list'], sandbox)).stdout).not.toContain('demo');
    } finally {
      await term.kill();
    }
  }, 30_000);
});
