/**
 * The MCP servers' entries (src/tools/servers.ts): what an `mcpServers` entry means to svc, what
 * an import adds and skips, the environment a server gets, and the names the model calls tools by
 * (src/tools/toolbox.ts). Pure functions, no server started.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import {
  expandVariables,
  parseEntry,
  parseEnvAssignments,
  parseHeaders,
  parseServerName,
  planImport,
  serverEnvironment,
  type CommandServer,
  type ServerList,
} from '../../src/tools/servers.js';
import { functionNameFor, parseSelection } from '../../src/tools/toolbox.js';

const none: ServerList = { path: '/x/mcp.json', servers: new Map(), broken: [] };

describe('an entry of mcpServers', () => {
  it.each([
    [{ command: 'npx', args: ['-y', 'pkg'], env: { A: 'b' }, cwd: '/srv' }, { kind: 'command', command: 'npx', args: ['-y', 'pkg'], env: { A: 'b' }, cwd: '/srv' }],
    [{ command: 'srv' }, { kind: 'command', command: 'srv', args: [], env: {} }],
    [{ type: 'stdio', command: 'srv' }, { kind: 'command', command: 'srv', args: [], env: {} }],
    [{ url: 'https://h.example/mcp', headers: { Authorization: 'Bearer x' } }, { kind: 'url', url: 'https://h.example/mcp', headers: { Authorization: 'Bearer x' } }],
    [{ httpUrl: 'http://127.0.0.1:9/mcp' }, { kind: 'url', url: 'http://127.0.0.1:9/mcp', headers: {} }],
  ])('%j is a server', (entry, config) => {
    expect(parseEntry(entry)).toEqual({ config, ignored: [] });
  });

  it.each([
    ['a string', 'it is not a JSON object'],
    [{ command: 'x', disabled: true }, 'it is marked "disabled"'],
    [{ type: 'sse', url: 'https://h.example/sse' }, 'it uses the older HTTP+SSE transport; svc speaks stdio and Streamable HTTP'],
    [{ type: 'ws', url: 'https://h.example' }, 'its "type" is one svc does not know ("ws")'],
    [{ command: 'x', url: 'https://h.example' }, 'it has both a "command" and a "url"'],
    [{ command: '' }, 'its "command" is not a program to run'],
    [{ command: 'x', args: 'a b' }, 'its "args" is not a list of texts'],
    [{ command: 'x', env: { PORT: 8080 } }, 'its "env" has PORT, which is not text'],
    [{ url: 'file:///etc/passwd' }, 'its "url" is not an http:// or https:// address'],
    [{ args: ['x'] }, 'it has neither a "command" nor a "url"'],
  ])('%j is not: %s', (entry, problem) => {
    expect(parseEntry(entry)).toEqual({ problem });
  });

  it("names the fields of another client's that svc passes over", () => {
    expect(parseEntry({ command: 'x', timeout: 5000, trust: true })).toMatchObject({ ignored: ['timeout', 'trust'] });
  });
});

describe('names and flags', () => {
  it('a server name has letters, digits, - and _, and no dot (NAME.TOOL names a tool)', () => {
    expect(parseServerName('my-files_2')).toBe('my-files_2');
    for (const bad of ['fs.read', '-x', 'a b', '', 'x'.repeat(33), 'ö']) expect(() => parseServerName(bad), bad).toThrow(UsageError);
  });

  it('--env KEY=VALUE, a value with "=" in it kept whole, a later KEY winning', () => {
    expect(parseEnvAssignments(['A=1', 'URL=http://x/?a=b', 'A=2', 'EMPTY='])).toEqual({ A: '2', URL: 'http://x/?a=b', EMPTY: '' });
    for (const bad of ['NOVALUE', '=x', '1A=x', 'A-B=x']) expect(() => parseEnvAssignments([bad]), bad).toThrow(/expected KEY=VALUE/);
  });

  it('--header "Name: value"', () => {
    expect(parseHeaders(['Authorization: Bearer a:b', 'X-Id:7'])).toEqual({ Authorization: 'Bearer a:b', 'X-Id': '7' });
    expect(() => parseHeaders(['no colon'])).toThrow(/expected "Name: value"/);
  });
});

describe('the environment a server starts with', () => {
  const svcEnv = { PATH: '/usr/bin', HOME: '/home/me', SVC_API_KEY: 'sk-secret', SVC_BASE_URL: 'http://x', USER: 'me', SHELL: '/bin/zsh', GITHUB_TOKEN: 'gh-1' };
  const server = (env: Record<string, string>): CommandServer => ({ kind: 'command', command: 'x', args: [], env });

  it('is PATH, HOME and its own variables: nothing else of svc\'s', () => {
    expect(serverEnvironment(server({ LOG: 'debug' }), svcEnv)).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LOG: 'debug' });
  });

  it('takes ${NAME} from svc\'s environment, so a token need not be kept in the file', () => {
    expect(serverEnvironment(server({ TOKEN: '${GITHUB_TOKEN}', URL: 'https://${USER}.example/${USER}' }), svcEnv)).toMatchObject({ TOKEN: 'gh-1', URL: 'https://me.example/me' });
    expect(expandVariables('$GITHUB_TOKEN and ${', svcEnv)).toBe('$GITHUB_TOKEN and ${');
  });

  it("never gives svc's own variables, even named, and says which variable is missing", () => {
    expect(() => serverEnvironment(server({ KEY: '${SVC_API_KEY}' }), svcEnv)).toThrow("${SVC_API_KEY} names one of svc's own variables, which are never passed to a server");
    expect(() => serverEnvironment(server({ KEY: '${NOT_SET}' }), svcEnv)).toThrow('${NOT_SET} is not set in the environment');
  });
});

describe('importing an mcpServers file', () => {
  const claude = JSON.stringify({
    globalShortcut: 'Ctrl+Space',
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
      github: { command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '$GITHUB_TOKEN' } },
      'brave search': { command: 'npx', args: ['-y', 'brave'] },
      remote: { type: 'sse', url: 'https://mcp.example.com/sse' },
      gemini: { httpUrl: 'https://mcp.example.com/mcp', timeout: 30000, trust: false },
    },
  });

  it('adds what it can, and says for each of the others why not', () => {
    const plan = planImport(claude, 'claude.json', none, false);
    expect(plan.add.map((server) => [server.name, server.config.kind, server.ignored, server.literalDollars])).toEqual([
      ['filesystem', 'command', [], []],
      ['github', 'command', [], ['GITHUB_PERSONAL_ACCESS_TOKEN']],
      ['gemini', 'url', ['timeout', 'trust'], []],
    ]);
    expect(plan.skip).toEqual([
      { name: 'brave search', reason: expect.stringMatching(/^its name is not a usable one/) },
      { name: 'remote', reason: 'it uses the older HTTP+SSE transport; svc speaks stdio and Streamable HTTP' },
    ]);
  });

  it('keeps a server of the same name unless forced', () => {
    const existing: ServerList = { ...none, servers: new Map([['filesystem', { kind: 'command', command: 'mine', args: [], env: {} }]]), broken: [{ name: 'github', problem: 'x' }] };
    const kept = planImport(claude, 'claude.json', existing, false);
    expect(kept.skip.filter((skip) => /exists/.test(skip.reason)).map((skip) => skip.name)).toEqual(['filesystem', 'github']);
    const forced = planImport(claude, 'claude.json', existing, true);
    expect(forced.add.filter((server) => server.replaces).map((server) => server.name)).toEqual(['filesystem', 'github']);
  });

  it('refuses a file that is not such a settings file', () => {
    expect(() => planImport('{"mcpServers": [', 'f.json', none, false)).toThrow('f.json is not valid JSON; nothing was imported');
    expect(() => planImport('{"servers": {}}', 'f.json', none, false)).toThrow('f.json has no "mcpServers" object; nothing was imported');
  });
});

describe('a selection of tools', () => {
  const servers: ServerList = { path: '/x/mcp.json', servers: new Map([['fs', { kind: 'command', command: 'x', args: [], env: {} }]]), broken: [{ name: 'old', problem: 'its "args" is not a list of texts' }] };

  it('is NAME, NAME.* or NAME.TOOL, a tool name with dots of its own', () => {
    expect(parseSelection(['fs', 'fs.*', 'fs.read.file'], servers).map((pick) => [pick.server, pick.tool])).toEqual([
      ['fs', undefined],
      ['fs', undefined],
      ['fs', 'read.file'],
    ]);
  });

  it('naming an unknown server is a usage error listing the servers there are', () => {
    expect(() => parseSelection(['fz.read'], servers)).toThrow('no MCP server named "fz"; servers: fs');
    expect(() => parseSelection(['fs'], { ...none })).toThrow('no MCP server named "fs"; none is configured');
    expect(() => parseSelection(['old'], servers)).toThrow('the MCP server "old" in /x/mcp.json cannot be used: its "args" is not a list of texts');
    expect(() => parseSelection(['fs.'], servers)).toThrow(UsageError);
  });
});

describe('the function names a model calls tools by', () => {
  const valid = /^[a-zA-Z0-9_-]{1,64}$/;

  it('are SERVER__TOOL, fitting the OpenAI rule, unique', () => {
    const taken = new Set<string>();
    const names = ['read_file', 'read.file', 'read file', 'x'.repeat(100), 'x'.repeat(101), 'ünï'].map((tool) => {
      const name = functionNameFor('fs', tool, taken);
      taken.add(name);
      return name;
    });
    expect(names.slice(0, 3)).toEqual(['fs__read_file', 'fs__read_file_2', 'fs__read_file_3']);
    expect(names[5]).toBe('fs___n_');
    expect(names[3]).toHaveLength(64);
    expect(names[4]).toBe(`${names[3]!.slice(0, 62)}_2`);
    for (const name of names) expect(name).toMatch(valid);
    expect(new Set(names).size).toBe(names.length);
  });
});
