/**
 * `svc mcp` through the built binary, as a user runs it: XDG folders in a temporary home, the
 * real filesystem MCP server, and the fixtures for a server that fails or never answers. What is
 * stored and where (owner-only, per profile), what a pipe and --json print, import of a Claude
 * Desktop file, a damaged file reported and left alone, and Ctrl-C leaving no process behind.
 */
import { execa } from 'execa';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FILESYSTEM_SERVER, STALLED_SERVER, isRunning, stalledPids } from '../helpers/mcp-servers.js';
import { makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox();
  mkdirSync(join(sandbox.home, 'notes'));
  writeFileSync(join(sandbox.home, 'notes', 'todo.txt'), 'ship it\n');
});
afterAll(() => sandbox?.cleanup());

const configDir = (): string => join(sandbox.env.XDG_CONFIG_HOME!, 'svc');
const mcpFile = (): string => join(configDir(), 'mcp.json');
/** Output exactly as written, final newline included. */
const run = (...args: string[]) => svc(args, sandbox, { stripFinalNewline: false });
const node = process.execPath;

describe('svc mcp add, list, remove', () => {
  it('keeps servers in mcp.json, owner-only, in the shape other clients read', async () => {
    expect((await run('mcp', 'add', 'notes', '--', node, FILESYSTEM_SERVER, join(sandbox.home, 'notes'))).stderr).toBe(
      `svc: added the MCP server "notes": ${node} ${FILESYSTEM_SERVER} ${join(sandbox.home, 'notes')}\n  see its tools: svc mcp tools notes\n`,
    );
    const added = await run('mcp', 'add', 'remote', '--url', 'https://mcp.example.com/mcp', '--header', 'Authorization: Bearer ${MCP_TOKEN}');
    expect(added.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(mcpFile(), 'utf8'))).toEqual({
      mcpServers: {
        notes: { command: node, args: [FILESYSTEM_SERVER, join(sandbox.home, 'notes')] },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${MCP_TOKEN}' } },
      },
    });
    expect(statSync(mcpFile()).mode & 0o777).toBe(0o600);
    expect(statSync(configDir()).mode & 0o777).toBe(0o700);
  });

  it('lists them: tab-separated in a pipe (names of variables, never values), JSON with --json', async () => {
    await run('mcp', 'add', 'demo', '--env', 'LOG_LEVEL=debug', '--env', 'TOKEN=secret-value', '--', 'mcp-server-everything');
    await run('mcp', 'add', 'remote', '--url', 'https://mcp.example.com/mcp');
    const list = await run('mcp', 'list');
    expect(list.stdout).toBe('demo\tstdio\tmcp-server-everything\tLOG_LEVEL,TOKEN\nremote\thttp\thttps://mcp.example.com/mcp\t-\n');
    expect(list.stderr).toBe('');
    const json = await run('mcp', 'ls', '--json');
    expect(JSON.parse(json.stdout)).toEqual([
      { name: 'demo', transport: 'stdio', command: 'mcp-server-everything', args: [], cwd: null, env: ['LOG_LEVEL', 'TOKEN'] },
      { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp', headers: [] },
    ]);
    expect(json.stdout).not.toContain('secret-value');
  });

  it('refuses what it cannot keep, changing nothing (exit 2)', async () => {
    await run('mcp', 'add', 'demo', '--', 'mcp-server-everything');
    const before = readFileSync(mcpFile(), 'utf8');
    const cases: Array<[string[], string]> = [
      [['mcp', 'add', 'fs.read', '--', 'x'], 'svc: error: "fs.read" is not a usable MCP server name\n  use letters, digits, "-" and "_" (at most 32, a letter or digit first; no dots)\n'],
      [['mcp', 'add', 'demo', '--', 'other'], 'svc: error: an MCP server named "demo" exists; nothing was changed\n  replace it with --force, or remove it first: svc mcp remove demo\n'],
      [['mcp', 'add', 'x'], 'svc: error: svc mcp add x: give the program to run after --, or --url\n  for example: svc mcp add x -- mcp-server-filesystem ~/notes\n'],
      [['mcp', 'add', 'x', '--url', 'https://h.example', '--', 'cmd'], 'svc: error: give either a program to run or --url, not both\n  for example: svc mcp add x -- mcp-server-filesystem ~/notes\n'],
      [['mcp', 'add', 'x', '--env', 'NOEQUALS', '--', 'cmd'], 'svc: error: --env NOEQUALS: expected KEY=VALUE (a variable name, "=", then its value)\n  for example --env LOG_LEVEL=debug\n'],
      [['mcp', 'add', 'x', '--url', 'ftp://h.example'], 'svc: error: --url ftp://h.example: not an http:// or https:// address\n'],
      [['mcp', 'add', 'x', '--header', 'A: b', '--', 'cmd'], 'svc: error: --header is for a --url server\n  a program gets --env variables instead\n'],
      [['mcp', 'remove', 'nope'], 'svc: error: no MCP server named "nope"; nothing was removed\n  servers: demo\n'],
    ];
    for (const [args, stderr] of cases) {
      const result = await run(...args);
      expect({ args, code: result.exitCode, stderr: result.stderr }).toEqual({ args, code: 2, stderr });
    }
    expect(readFileSync(mcpFile(), 'utf8')).toBe(before);
    // --force replaces.
    expect((await run('mcp', 'add', 'demo', '--force', '--', 'other')).stderr).toMatch(/^svc: replaced the MCP server "demo": other\n/);
  });

  it('removes without asking in a script, and says so', async () => {
    await run('mcp', 'add', 'a', '--', 'x');
    await run('mcp', 'add', 'b', '--', 'y');
    const removed = await run('mcp', 'rm', 'a');
    expect(removed).toMatchObject({ exitCode: 0, stderr: 'svc: removed the MCP server "a"\n' });
    expect((await run('mcp', 'list')).stdout).toBe('b\tstdio\ty\t-\n');
  });

  it('keeps each profile\'s servers apart (--profile), and a profile that does not exist is exit 2', async () => {
    await run('mcp', 'add', 'work-files', '--profile', 'work', '--', 'x');
    expect(JSON.parse(readFileSync(join(configDir(), 'profiles', 'work', 'mcp.json'), 'utf8'))).toEqual({ mcpServers: { 'work-files': { command: 'x', args: [] } } });
    expect((await run('mcp', 'list')).stdout).toBe('');
    expect((await run('mcp', 'list', '--profile', 'work')).stdout).toBe('work-files\tstdio\tx\t-\n');
    const missing = await run('mcp', 'list', '--profile', 'nope');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^svc: error: no profile named "nope" \(from --profile\); profiles: default, work\n/);
  });
});

describe('a damaged mcp.json', () => {
  it('is reported with its path and never overwritten', async () => {
    mkdirSync(configDir(), { recursive: true });
    writeFileSync(mcpFile(), '{"mcpServers": {"notes": {"command": "x",}}}', { mode: 0o600 });
    const list = await run('mcp', 'list');
    expect(list.exitCode).toBe(1);
    expect(list.stderr).toBe(`svc: error: ${mcpFile()} is not valid JSON (line 1, column 42)\n  fix it by hand, or move it away and add the servers again with \`svc mcp add\` or \`svc mcp import\`\n`);
    const add = await run('mcp', 'add', 'other', '--', 'y');
    expect(add.exitCode).toBe(1);
    expect(add.stderr).toMatch(/is not valid JSON \(line 1, column 42\); svc did not change it\n/);
    expect(readFileSync(mcpFile(), 'utf8')).toBe('{"mcpServers": {"notes": {"command": "x",}}}');
  });

  it('one others can read is made owner-only, and the user told', async () => {
    mkdirSync(configDir(), { recursive: true });
    writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { good: { command: 'y', env: { TOKEN: 't' } } } }), { mode: 0o644 });
    chmodSync(mcpFile(), 0o644);
    const list = await run('mcp', 'list');
    expect(list.stdout).toBe('good\tstdio\ty\tTOKEN\n');
    expect(list.stderr).toBe(`svc: note: ${mcpFile()} could be read by other users (mode 0644); svc made it owner-only (mode 0600)\n`);
    expect(statSync(mcpFile()).mode & 0o777).toBe(0o600);
  });

  it('an entry svc cannot use is named, skipped, and kept as it is when others are written', async () => {
    mkdirSync(configDir(), { recursive: true });
    writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { odd: { command: 'x', args: 'not a list' }, good: { command: 'y' } } }), { mode: 0o600 });
    const list = await run('mcp', 'list');
    expect(list.stdout).toBe('good\tstdio\ty\t-\n');
    expect(list.stderr).toBe(`svc: warning: the entry "odd" in ${mcpFile()} cannot be used: its "args" is not a list of texts\n`);
    await run('mcp', 'add', 'new', '--', 'z');
    expect(JSON.parse(readFileSync(mcpFile(), 'utf8')).mcpServers.odd).toEqual({ command: 'x', args: 'not a list' });
    const tools = await run('mcp', 'tools', 'odd');
    expect(tools.exitCode).toBe(2);
    expect(tools.stderr).toContain(`the MCP server "odd" in ${mcpFile()} cannot be used: its "args" is not a list of texts`);
  });
});

describe('svc mcp import', () => {
  const claudeDesktop = () => ({
    globalShortcut: 'Ctrl+Space',
    mcpServers: {
      filesystem: { command: node, args: [FILESYSTEM_SERVER, join(sandbox.home, 'notes')] },
      github: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '<token>' } },
      'brave search': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-brave-search'] },
      sentry: { type: 'sse', url: 'https://mcp.sentry.dev/sse' },
    },
  });

  it('adds the servers of a Claude Desktop file, and says what it skipped and why', async () => {
    const file = join(sandbox.home, 'claude_desktop_config.json');
    writeFileSync(file, JSON.stringify(claudeDesktop(), null, 2));
    await run('mcp', 'add', 'github', '--', 'my-own-github-server');
    const imported = await run('mcp', 'import', file);
    expect(imported.exitCode).toBe(0);
    expect(imported.stderr).toBe(
      [
        `svc: added "filesystem": ${node} ${FILESYSTEM_SERVER} ${join(sandbox.home, 'notes')}`,
        'svc: warning: skipped "github": a server of that name exists (--force replaces it)',
        'svc: warning: skipped "brave search": its name is not a usable one (use letters, digits, "-" and "_" (at most 32, a letter or digit first; no dots)); add it under another with svc mcp add',
        'svc: warning: skipped "sentry": it uses the older HTTP+SSE transport; svc speaks stdio and Streamable HTTP',
        `svc: imported 1 of 4 MCP servers from ${file} into ${mcpFile()}`,
        '',
      ].join('\n'),
    );
    expect((await run('mcp', 'list')).stdout).toBe(`github\tstdio\tmy-own-github-server\t-\nfilesystem\tstdio\t${node} ${FILESYSTEM_SERVER} ${join(sandbox.home, 'notes')}\t-\n`);
    // The imported server works.
    expect((await run('mcp', 'tools', 'filesystem')).stdout).toContain('read_text_file\tread-only\tRead the complete contents of a file');
    // --force replaces the one of the same name; standard input is read with -.
    const forced = await svc(['mcp', 'import', '--force', '-'], sandbox, { input: JSON.stringify(claudeDesktop()), stripFinalNewline: false });
    expect(forced.stderr).toContain('svc: replaced "github": docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/github/github-mcp-server\n');
    expect(forced.stderr).toContain('svc: replaced "filesystem": ');
    expect(forced.stderr).toContain(`svc: imported 2 of 4 MCP servers from standard input into ${mcpFile()}\n`);
  });

  it("a gemini-cli file: httpUrl, the fields svc has no use for named, a $NAME value pointed out", async () => {
    const gemini = { theme: 'Default', mcpServers: { search: { httpUrl: 'https://mcp.example.com/mcp', timeout: 5000, trust: true }, github: { command: 'github-mcp', env: { TOKEN: '$GITHUB_TOKEN', OTHER: '${OTHER}' } } } };
    const imported = await svc(['mcp', 'import', '-'], sandbox, { input: JSON.stringify(gemini), stripFinalNewline: false });
    expect(imported.stderr).toBe(
      [
        'svc: added "search": https://mcp.example.com/mcp',
        '  svc has no use for its "timeout", "trust"',
        'svc: added "github": github-mcp',
        'svc: warning: "github": the value of TOKEN looks like a variable ($NAME), which svc passes as written',
        '  write ${NAME} for svc to take it from your environment when the server starts',
        `svc: imported 2 of 2 MCP servers from standard input into ${mcpFile()}`,
        '',
      ].join('\n'),
    );
    expect(JSON.parse(readFileSync(mcpFile(), 'utf8')).mcpServers).toEqual({ search: { url: 'https://mcp.example.com/mcp' }, github: { command: 'github-mcp', args: [], env: { TOKEN: '$GITHUB_TOKEN', OTHER: '${OTHER}' } } });
  });

  it('a file that is not such a settings file changes nothing (exit 2)', async () => {
    const file = join(sandbox.home, 'other.json');
    writeFileSync(file, '{"servers": {}}');
    expect(await run('mcp', 'import', file)).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/^svc: error: .*other\.json has no "mcpServers" object; nothing was imported\n/) });
    expect(await run('mcp', 'import', join(sandbox.home, 'missing.json'))).toMatchObject({ exitCode: 2, stderr: `svc: error: ${join(sandbox.home, 'missing.json')}: no such file; nothing was imported\n` });
  });
});

describe('svc mcp tools', () => {
  it('starts the server, lists its tools (read-only as the server marks it), and stops it', async () => {
    await run('mcp', 'add', 'notes', '--', node, FILESYSTEM_SERVER, join(sandbox.home, 'notes'));
    const tools = await run('mcp', 'tools', 'notes');
    expect(tools.exitCode).toBe(0);
    const lines = tools.stdout.split('\n');
    expect(lines).toContain('list_directory\tread-only\tGet a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.');
    expect(lines.find((line) => line.startsWith('write_file\t'))).toMatch(/^write_file\t-\tCreate a new file/);
    const one = JSON.parse((await run('mcp', 'tools', 'notes.read_text_file', '--json')).stdout);
    expect(one).toEqual([{ name: 'read_text_file', function: 'notes__read_text_file', readOnly: true, description: expect.stringMatching(/^Read the complete contents/), inputSchema: expect.objectContaining({ type: 'object', required: ['path'] }) }]);
  });

  it('names what is not there: an unknown server or tool is exit 2, listing what exists', async () => {
    await run('mcp', 'add', 'notes', '--', node, FILESYSTEM_SERVER, join(sandbox.home, 'notes'));
    expect(await run('mcp', 'tools', 'nots')).toMatchObject({ exitCode: 2, stderr: 'svc: error: no MCP server named "nots"; servers: notes\n  add one with svc mcp add NAME -- COMMAND [ARGS...] (svc mcp --help)\n' });
    const tool = await run('mcp', 'tools', 'notes.read');
    expect(tool.exitCode).toBe(2);
    expect(tool.stderr).toMatch(/^svc: error: the MCP server "notes" has no tool "read"; its tools: read_file, read_text_file, /);
  });

  it('a server that cannot start is exit 1, naming it and quoting the last line of its stderr', async () => {
    await run('mcp', 'add', 'broken', '--', 'sh', '-c', 'echo "Error: no API key set" >&2; exit 1');
    const result = await run('mcp', 'tools', 'broken');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'svc: error: the MCP server "broken" could not start: it exited (exit code 1) before it was ready; it said: "Error: no API key set"\n' +
        `  run it by hand to see what it says: sh -c 'echo "Error: no API key set" >&2; exit 1'\n`,
    );
  });
});

describe('Ctrl-C while a server starts', () => {
  /** Start `svc mcp tools stalled` in the background, with a server that writes its ids to `pidFile`. */
  async function startStalled(stubborn: boolean) {
    const pidFile = join(sandbox.home, 'stalled.pid');
    rmSync(pidFile, { force: true });
    await run('mcp', 'add', 'stalled', '--force', '--', node, STALLED_SERVER, pidFile, ...(stubborn ? ['--stubborn'] : []));
    const child = execa(node, [SVC_BIN, 'mcp', 'tools', 'stalled'], { env: sandbox.env, extendEnv: false, cwd: sandbox.home, reject: false, stdin: 'ignore', stripFinalNewline: false, timeout: 20_000 });
    const [server, grandchild] = await stalledPids(pidFile);
    return { child, pidFile, server: server!, grandchild: grandchild! };
  }

  it('stops svc (exit 130) and the server and what it started', async () => {
    const { child, server, grandchild } = await startStalled(false);
    expect(isRunning(server) && isRunning(grandchild)).toBe(true);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toBe('svc: interrupted\n');
    expect(isRunning(server)).toBe(false);
    await vi.waitFor(() => expect(isRunning(grandchild)).toBe(false), { timeout: 5000, interval: 20 });
  });

  it('a second Ctrl-C ends svc at once, and kills a server that ignored the first on its way out', async () => {
    const { child, pidFile, server, grandchild } = await startStalled(true);
    child.kill('SIGINT');
    // The server got SIGTERM and ignored it; svc is waiting for it.
    await vi.waitFor(() => expect(readFileSync(`${pidFile}.term`, 'utf8')).toBe('SIGTERM'), { timeout: 10_000, interval: 20 });
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    await vi.waitFor(() => expect([isRunning(server), isRunning(grandchild)]).toEqual([false, false]), { timeout: 5000, interval: 20 });
  });
});
