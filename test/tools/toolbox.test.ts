/**
 * The toolbox (src/tools/toolbox.ts) against real MCP servers, in-process: the published
 * filesystem server on a temporary folder and the everything server, the fixtures for a server
 * that dies in a call or never answers, and a Streamable HTTP server made here with the SDK.
 * What the chat loop relies on: the definitions, calls and their results (never a throw for what
 * a model or a server did wrong), the environment a server gets, failures that name the server
 * and quote its stderr, and no process left behind, whether closed or aborted.
 */
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InterruptedError, ToolServerError, UsageError } from '../../src/core/errors.js';
import { openToolbox, type Toolbox } from '../../src/tools/toolbox.js';
import type { ServerConfig } from '../../src/tools/servers.js';
import { refusedBaseUrl } from '../helpers/refused-url.js';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER, STALLED_SERVER, TEST_SERVER, isRunning, nodeServer, serverList, stalledPids } from '../helpers/mcp-servers.js';

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
let folder: string;
/** svc's environment as a command would see it: its key and settings among the rest. */
let svcEnv: Record<string, string>;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'svc-test-tools-'));
  writeFileSync(join(folder, 'notes.txt'), 'ship on Friday\nask about the budget\n');
  writeFileSync(join(folder, 'big.txt'), `${'line of a big file\n'.repeat(12_000)}`);
  svcEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, SVC_API_KEY: 'sk-never-to-a-server', SVC_BASE_URL: 'http://127.0.0.1:1', USER: 'me', SHELL: '/bin/sh', TERM: 'xterm', MY_TOKEN: 'token-from-env' };
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function open(selection: string[], servers: Record<string, ServerConfig>, extra: Partial<Parameters<typeof openToolbox>[1]> = {}): Promise<Toolbox> {
  return openToolbox(selection, { servers: serverList(servers), env: svcEnv, cwd: folder, ...extra });
}

const fs = (): ServerConfig => nodeServer(FILESYSTEM_SERVER, [folder]);
const everything = (env: Record<string, string> = {}): ServerConfig => nodeServer(EVERYTHING_SERVER, [], env);

describe('the filesystem server on a temporary folder', () => {
  let toolbox: Toolbox;
  beforeAll(async () => {
    toolbox = await open(['fs.list_directory', 'fs.read_text_file', 'fs.write_file'], { fs: fs() });
  });
  afterAll(() => toolbox.close());

  it('offers the tools selected, as OpenAI function definitions with their schemas', () => {
    expect(toolbox.definitions.map((definition) => definition.function.name)).toEqual(['fs__list_directory', 'fs__read_text_file', 'fs__write_file']);
    const read = toolbox.definitions[1]!;
    expect(read.type).toBe('function');
    expect(read.function.description).toMatch(/^Read the complete contents of a file/);
    expect(read.function.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    for (const definition of toolbox.definitions) expect(definition.function.name).toMatch(OPENAI_NAME);
  });

  it('tells a function name back as the server and tool, read-only as the server marks it', () => {
    expect(toolbox.describe('fs__read_text_file')).toEqual({ server: 'fs', tool: 'read_text_file', readOnly: true });
    expect(toolbox.describe('fs__write_file')).toEqual({ server: 'fs', tool: 'write_file', readOnly: false });
    expect(toolbox.describe('fs__move_file')).toBeUndefined();
  });

  it('lists the folder and reads a file', async () => {
    expect((await toolbox.call('fs__list_directory', JSON.stringify({ path: folder }))).content).toBe('[FILE] big.txt\n[FILE] notes.txt');
    const read = await toolbox.call('fs__read_text_file', JSON.stringify({ path: join(folder, 'notes.txt') }));
    expect(read).toMatchObject({ content: 'ship on Friday\nask about the budget\n', isError: false, truncated: false, summary: '36 B, 2 lines: ship on Friday' });
  });

  it("keeps the server's error as an error result the model reads", async () => {
    const outside = await toolbox.call('fs__read_text_file', JSON.stringify({ path: '/etc/passwd' }));
    expect(outside.isError).toBe(true);
    expect(outside.content).toMatch(/^Access denied - path outside allowed directories: \/etc\/passwd/);
  });

  it('gives the model at most 64 KiB of a big file, and says it was cut', async () => {
    const big = await toolbox.call('fs__read_text_file', JSON.stringify({ path: join(folder, 'big.txt') }));
    expect(big.truncated).toBe(true);
    expect(big.bytes).toBe(12_000 * 19);
    expect(Buffer.byteLength(big.content)).toBeLessThanOrEqual(64 * 1024);
    expect(big.content).toMatch(/\n\[output cut: the tool returned 222\.7 KiB; only the first 64\.0 KiB are shown\]$/);
  });

  it('cannot call a tool that was not offered, even one the server has', async () => {
    const result = await toolbox.call('fs__move_file', '{"source": "a", "destination": "b"}');
    expect(result).toMatchObject({ isError: true, content: 'there is no tool named "fs__move_file"; the tools offered: fs__list_directory, fs__read_text_file, fs__write_file' });
  });
});

describe('the everything server', () => {
  let toolbox: Toolbox;
  beforeAll(async () => {
    toolbox = await open(['everything'], { everything: everything({ GIVEN: 'yes', TOKEN: '${MY_TOKEN}' }) });
  });
  afterAll(() => toolbox.close());

  it('echo, add, an image described in words', async () => {
    expect((await toolbox.call('everything__echo', '{"message": "hello"}')).content).toBe('Echo: hello');
    expect((await toolbox.call('everything__get-sum', '{"a": 2, "b": 3}')).content).toBe('The sum of 2 and 3 is 5.');
    const image = await toolbox.call('everything__get-tiny-image', '{}');
    expect(image.content).toMatch(/^Here's the image you requested:\n\[image image\/png, \d+\.\d KiB\]\nThe image above is the MCP logo\.$/);
  });

  it('an invalid call is an error result, never a throw: arguments the tool refuses, arguments that are not JSON, a name not offered', async () => {
    const refused = await toolbox.call('everything__get-sum', '{"a": "two"}');
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain('Invalid arguments for tool get-sum');
    expect(await toolbox.call('everything__get-sum', '{"a": 2,')).toMatchObject({ isError: true, content: 'the arguments of everything__get-sum are not valid JSON; call it again with a JSON object that fits its parameters' });
    expect(await toolbox.call('everything__get-sum', '[2, 3]')).toMatchObject({ isError: true, content: 'the arguments of everything__get-sum must be a JSON object, not an array' });
    expect(await toolbox.call('everything__get-sum', 'null')).toMatchObject({ isError: true, content: 'the arguments of everything__get-sum must be a JSON object, not null' });
    const unknown = await toolbox.call('get_weather', '{}');
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toMatch(/^there is no tool named "get_weather"; the tools offered: everything__echo, /);
  });

  it("leaves no listener behind on the caller's signal, however many calls share it", async () => {
    const reply = new AbortController();
    for (let i = 0; i < 12; i++) expect((await toolbox.call('everything__echo', `{"message": "call ${i}"}`, reply.signal)).content).toBe(`Echo: call ${i}`);
    expect(getEventListeners(reply.signal, 'abort')).toHaveLength(0);
  });

  it("starts the server with PATH, HOME and its own variables only: never svc's key or settings, nothing else of svc's", async () => {
    // Empty arguments are no arguments (some models send "" for a tool that takes none).
    const env = JSON.parse((await toolbox.call('everything__get-env', '')).content) as Record<string, string>;
    expect(env).toEqual({ PATH: svcEnv.PATH, HOME: folder, GIVEN: 'yes', TOKEN: 'token-from-env' });
  });
});

describe('servers that fail', () => {
  it('a program that is not there, or that exits at once, is a failure naming it and quoting its stderr; the other servers go on', async () => {
    const heard: ToolServerError[] = [];
    const toolbox = await open(['missing', 'exits', 'test'], {
      missing: { kind: 'command', command: 'no-such-mcp-server-here', args: [], env: {} },
      exits: { kind: 'command', command: 'sh', args: ['-c', 'echo "loading config" >&2; echo "Error: \u001b[1mno API key\u001b[0m" >&2; exit 3'], env: {} },
      test: nodeServer(TEST_SERVER),
    }, { onServerFailure: (error) => heard.push(error) });
    try {
      expect(toolbox.failures.map((failure) => [failure.server, failure.message, failure.stderrLine])).toEqual([
        ['missing', 'the MCP server "missing" could not start: cannot run "no-such-mcp-server-here": no such program on PATH', undefined],
        ['exits', 'the MCP server "exits" could not start: it exited (exit code 3) before it was ready; it said: "Error: no API key"', 'Error: no API key'],
      ]);
      expect(toolbox.failures[1]!.hint).toBe(`run it by hand to see what it says: sh -c 'echo "loading config" >&2; echo "Error: \u001b[1mno API key\u001b[0m" >&2; exit 3'`);
      expect(heard.map((error) => error.server)).toEqual(['missing', 'exits']);
      expect(toolbox.definitions.map((definition) => definition.function.name)).toEqual(['test__pid', 'test__wait', 'test__crash']);
    } finally {
      await toolbox.close();
    }
  });

  it('a server that dies in a call: an error result naming it and its last stderr line, neutralised; its tools are no longer offered', async () => {
    const heard: ToolServerError[] = [];
    const toolbox = await open(['test', 'everything.echo'], { test: nodeServer(TEST_SERVER), everything: everything() }, { onServerFailure: (error) => heard.push(error) });
    try {
      const crash = await toolbox.call('test__crash', '{}');
      expect(crash.isError).toBe(true);
      expect(crash.content).toBe('the tool test__crash cannot be used: the MCP server "test" stopped (exit code 3); it said: "fatal: the database \u241b]0;owned\u2407is gone"');
      expect(heard.map((error) => error.server)).toEqual(['test']);
      expect(toolbox.failures.map((failure) => failure.server)).toEqual(['test']);
      expect(toolbox.definitions.map((definition) => definition.function.name)).toEqual(['everything__echo']);
      expect(await toolbox.call('test__pid', '{}')).toMatchObject({ isError: true, content: expect.stringMatching(/^the tool test__pid cannot be used: the MCP server "test" stopped/) });
      expect((await toolbox.call('everything__echo', '{"message": "still here"}')).content).toBe('Echo: still here');
      // Selected again (`/tools add`), it is started again.
      await toolbox.select(['test', 'everything.echo']);
      expect(toolbox.failures).toEqual([]);
      expect((await toolbox.call('test__pid', '{}')).isError).toBe(false);
    } finally {
      await toolbox.close();
    }
  });
});

describe('a selection that names what is not there', () => {
  it('an unknown server is a usage error listing the servers, and starts nothing', async () => {
    const error = await open(['fz'], { fs: fs(), everything: everything() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('no MCP server named "fz"; servers: fs, everything');
  });

  it("an unknown tool is a usage error listing the server's tools, and stops the server", async () => {
    const pidFile = join(folder, 'unknown-tool.pid');
    const error = await open(['test.pid', 'test.shutdown'], { test: nodeServer(TEST_SERVER, [], { PID_FILE: pidFile }) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('the MCP server "test" has no tool "shutdown"; its tools: pid, wait, crash');
    expect((error as UsageError).exitCode).toBe(2);
    expect(isRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});

describe('no server outlives its toolbox', () => {
  it('close() stops the servers: their processes are gone', async () => {
    const toolbox = await open(['test'], { test: nodeServer(TEST_SERVER) });
    const pid = Number((await toolbox.call('test__pid', '{}')).content);
    expect(isRunning(pid)).toBe(true);
    await toolbox.close();
    expect(isRunning(pid)).toBe(false);
  });

  it('aborting (Ctrl-C) while a server starts stops it and what it started, even one that ignores SIGTERM', async () => {
    const pidFile = join(folder, 'stalled.pid');
    const controller = new AbortController();
    const opening = open(['stalled'], { stalled: nodeServer(STALLED_SERVER, [pidFile, '--stubborn']) }, { signal: controller.signal });
    const [server, child] = await stalledPids(pidFile);
    expect(isRunning(server!)).toBe(true);
    expect(isRunning(child!)).toBe(true);
    controller.abort();
    await expect(opening).rejects.toBeInstanceOf(InterruptedError);
    expect(readFileSync(`${pidFile}.term`, 'utf8')).toBe('SIGTERM');
    expect(isRunning(server!)).toBe(false);
    await vi.waitFor(() => expect(isRunning(child!)).toBe(false), { timeout: 5000, interval: 20 });
  });

  it("a call's own signal (a session's Ctrl-C that stops one reply) ends that call alone: the server goes on", async () => {
    const toolbox = await open(['test'], { test: nodeServer(TEST_SERVER) });
    try {
      const pid = Number((await toolbox.call('test__pid', '{}')).content);
      const reply = new AbortController();
      const calling = toolbox.call('test__wait', '{}', reply.signal);
      reply.abort();
      await expect(calling).rejects.toBeInstanceOf(InterruptedError);
      expect(isRunning(pid)).toBe(true);
      expect((await toolbox.call('test__pid', '{}')).content).toBe(String(pid));
    } finally {
      await toolbox.close();
    }
  });

  it('aborting during a call ends the call as an interruption and stops the server', async () => {
    const controller = new AbortController();
    const toolbox = await open(['test'], { test: nodeServer(TEST_SERVER) }, { signal: controller.signal });
    const pid = Number((await toolbox.call('test__pid', '{}')).content);
    const calling = toolbox.call('test__wait', '{}', controller.signal);
    controller.abort();
    await expect(calling).rejects.toBeInstanceOf(InterruptedError);
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 5000, interval: 20 });
    expect(toolbox.definitions).toEqual([]);
    await toolbox.close();
  });
});

describe('a server over Streamable HTTP', () => {
  let http: HttpServer;
  let base: string;
  beforeAll(async () => {
    // Stateless: a server for each request, as the SDK's simplest HTTP set-up does.
    http = createServer((request, response) => {
      if (request.url !== '/mcp') {
        response.writeHead(404).end('not here');
        return;
      }
      const server = new Server({ name: 'http-test', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'whoami', description: 'Says the Authorization header it got.', inputSchema: { type: 'object', properties: {} } }] }));
      server.setRequestHandler(CallToolRequestSchema, async (_call, extra) => ({ content: [{ type: 'text', text: String(extra.requestInfo?.headers.authorization) }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      void server.connect(transport).then(() => transport.handleRequest(request, response));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('is called with the headers of its entry, ${NAME} taken from the environment', async () => {
    const toolbox = await open(['remote'], { remote: { kind: 'url', url: `${base}/mcp`, headers: { Authorization: 'Bearer ${MY_TOKEN}' } } });
    try {
      expect(toolbox.definitions.map((definition) => definition.function.name)).toEqual(['remote__whoami']);
      expect((await toolbox.call('remote__whoami', '{}')).content).toBe('Bearer token-from-env');
    } finally {
      await toolbox.close();
    }
  });

  it('an address that answers 404, or that cannot be reached, is a failure naming the server and the address', async () => {
    const toolbox = await open(['wrong', 'closed'], {
      wrong: { kind: 'url', url: `${base}/other`, headers: {} },
      closed: { kind: 'url', url: `${await refusedBaseUrl()}/mcp`, headers: {} },
    });
    expect(toolbox.failures.map((failure) => failure.message)).toEqual([
      `the MCP server "wrong" could not start: ${base}/other answered HTTP 404`,
      // fetch refuses port 1 itself (a port on the Fetch standard's "bad ports" list), before any connection.
      'the MCP server "closed" could not start: cannot connect to http://127.0.0.1:1/mcp: bad port',
    ]);
    await toolbox.close();
  });
});
