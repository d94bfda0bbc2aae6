/**
 * The MCP servers the tool tests start: the published filesystem and everything servers
 * (devDependencies, installed with the rest, never fetched at run time), and the fixtures of
 * test/fixtures/mcp for what those do not show (a server that dies in a call, one that never
 * answers). Each runs as `node SCRIPT`, so no test depends on a `node` found on PATH.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type { CommandServer, ServerConfig, ServerList } from '../../src/tools/servers.js';

const bin = (name: string): string => realpathSync(fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url)));

/** The script of @modelcontextprotocol/server-filesystem. */
export const FILESYSTEM_SERVER = bin('mcp-server-filesystem');
/** The script of @modelcontextprotocol/server-everything (echo, get-sum, get-tiny-image, get-env...). */
export const EVERYTHING_SERVER = bin('mcp-server-everything');
/** test/fixtures/mcp/test-server.mjs: `pid` and `crash`. */
export const TEST_SERVER = fileURLToPath(new URL('../fixtures/mcp/test-server.mjs', import.meta.url));
/** test/fixtures/mcp/stalled-server.mjs FILE [--stubborn]: never answers; writes "PID CHILD_PID" to FILE. */
export const STALLED_SERVER = fileURLToPath(new URL('../fixtures/mcp/stalled-server.mjs', import.meta.url));

/** A server run as `node script args...`. */
export function nodeServer(script: string, args: string[] = [], env: Record<string, string> = {}): CommandServer {
  return { kind: 'command', command: process.execPath, args: [script, ...args], env };
}

/** A server list as the store would read it. */
export function serverList(servers: Record<string, ServerConfig>): ServerList {
  return { path: '/nowhere/mcp.json', servers: new Map(Object.entries(servers)), broken: [] };
}

/** Whether a process of that id runs (a zombie, dead but not yet reaped by whoever adopted it, does not). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: the state follows the command's name in brackets ("123 (node) Z ...").
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (error) {
    // Gone in between; or no /proc (macOS), where kill(0) is the answer.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || process.platform !== 'linux';
  }
}

/** The two ids a stalled server writes (itself, its child), once it has written them. */
export async function stalledPids(file: string): Promise<number[]> {
  return vi.waitFor(
    () => {
      const pids = readFileSync(file, 'utf8').trim().split(' ').map(Number);
      if (pids.length !== 2 || pids.some((pid) => !(pid > 0))) throw new Error('not yet');
      return pids;
    },
    { timeout: 15_000, interval: 20 },
  );
}
