#!/usr/bin/env node
// `npm run demo`: start the embedded emulator on a free port, then show svc streaming a reply
// from it, a reply with a code block (rendered as Markdown on a terminal), a pipe, --json, a tool
// round trip through a real MCP server, and an image. Everything it writes (settings, conversations, the image) lives in one throwaway folder,
// removed at the end, so the user's files are untouched and nothing is left behind.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Modification time of `path`, or of the newest file under it; 0 when it is missing. */
function newest(path) {
  try {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
  } catch {
    return 0;
  }
}

// A clone has no dist/ until it is built (the build runs at `npm pack`, not at every install:
// docs/development.md, Packaging), and a pulled change leaves it stale: build then, and only
// then. Never otherwise, because the build empties dist/ first, and the README's test runs this
// demo while other tests run the built files.
const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'scripts', 'compile.mjs')), newest(join(root, 'scripts', 'bundle.mjs')), newest(join(root, 'package-lock.json')));
const built = Math.min(newest(join(root, 'dist', 'bundle', 'cli.cjs')), newest(join(root, 'dist', 'bundle', 'help.json')));
if (built === 0 || built < sources) {
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const svcBin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'svc-demo-'));
const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache') };
// The user's own SVC_* settings must not leak in: every variable of the settings table, and the key.
const { settingDefinitions } = await import('../dist/settings/definitions.js');
const { API_KEY_ENV } = await import('../dist/settings/api-key.js');
for (const name of [...Object.values(settingDefinitions).map((setting) => setting.env), API_KEY_ENV]) delete env[name];

// Tokens are paced so a person sees them stream in; into a pipe or a log nobody watches them
// arrive, so there the demo does not wait (its test, and CI, run it that way).
const delayMs = process.stdout.isTTY ? '25' : '0';
const emulator = spawn(process.execPath, [svcBin, 'emulator', '--port', '0', '--delay', delayMs], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const emulatorExited = new Promise((resolve) => emulator.once('exit', resolve));
/** Stop the emulator and remove the demo's folder, once the emulator is gone (it writes there as it exits). */
const stop = async () => {
  emulator.kill('SIGTERM');
  await emulatorExited;
  rmSync(home, { recursive: true, force: true });
};

const ready = await new Promise((resolve, reject) => {
  let text = '';
  const timer = setTimeout(() => reject(new Error('the emulator did not start within 10 s')), 10_000);
  emulator.stderr.on('data', (data) => {
    text += data;
    const baseUrl = /SVC_BASE_URL=(\S+)/.exec(text)?.[1];
    const key = /SVC_API_KEY=(\S+)/.exec(text)?.[1];
    if (baseUrl && key && text.includes('Press Ctrl-C')) {
      clearTimeout(timer);
      resolve({ baseUrl, key });
    }
  });
  emulator.on('exit', (code) => reject(new Error(`the emulator exited (${code}): ${text}`)));
}).catch(async (error) => {
  await stop();
  throw error;
});
Object.assign(env, { SVC_BASE_URL: ready.baseUrl, SVC_API_KEY: ready.key });

async function show(title, command, args, input) {
  const bold = process.stderr.isTTY ? (text) => `\u001b[1m${text}\u001b[0m` : (text) => text;
  process.stderr.write(`\n${bold(`$ ${title}`)}\n`);
  const result = spawnSync(command, args, { env, stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'], input });
  if (result.status !== 0) {
    await stop();
    process.stderr.write(`demo step failed with exit code ${result.status}\n`);
    process.exit(1);
  }
}

process.stderr.write(`svc demo: emulator running at ${ready.baseUrl}\n`);
await show('svc chat "how do lighthouses work?"', process.execPath, [svcBin, 'chat', '--no-stdin', 'how do lighthouses work?']);
// A reply with structure (prose, a fenced code block, inline code): on a terminal svc renders it
// (fences hidden, code highlighted, words wrapped); into a pipe or a log it is the Markdown as sent.
const rendered = process.stdout.isTTY ? '   # rendered: stdout is a terminal (--raw for the Markdown as sent)' : '';
await show(`svc chat "write a python function that reverses a string"${rendered}`, process.execPath, [svcBin, 'chat', '--no-stdin', 'write a python function that reverses a string']);
await show('printf "line one\\nline two\\n" | svc chat "summarise this"', process.execPath, [svcBin, 'chat', 'summarise this'], 'line one\nline two\n');
await show('svc chat --json --max-tokens 12 -t 0 "name three rivers"', process.execPath, [svcBin, 'chat', '--no-stdin', '--json', '--max-tokens', '12', '-t', '0', 'name three rivers']);
// A tool round trip: the filesystem MCP server (a dev dependency, so installed wherever the demo
// runs) on a notes folder of the demo's own; the model calls its read_text_file tool, svc runs it
// (allowed up front, so nobody is asked) and the answer quotes what the file says. The titles name
// the server's command as `npm run` finds it on PATH; the demo starts it by its full path.
const notes = join(home, 'notes');
mkdirSync(notes);
writeFileSync(join(notes, 'notes.txt'), 'Ship the release on Friday.\nAsk about the budget.\n');
const filesystemServer = join(root, 'node_modules', '.bin', 'mcp-server-filesystem');
await show(`svc mcp add files -- mcp-server-filesystem ${notes}`, process.execPath, [svcBin, 'mcp', 'add', 'files', '--', filesystemServer, notes]);
// The server reads a relative path inside the folder it was given.
const readNotes = 'read the text file notes.txt: when do we ship?';
await show(`svc chat --tools files --allow 'files.*' "${readNotes}"`, process.execPath, [svcBin, 'chat', '--no-stdin', '--tools', 'files', '--allow', 'files.*', readNotes]);
// The image goes into the demo's own folder, removed with it: the demo leaves nothing behind.
const imagePath = join(home, 'lighthouse.png');
await show('svc image "a lighthouse at dusk" --aspect 16:9 -o lighthouse.png', process.execPath, [svcBin, 'image', 'a lighthouse at dusk', '--aspect', '16:9', '-o', imagePath]);
process.stderr.write('\nThe image was saved in the demo\'s temporary folder, removed now; run the same command to keep one.\n');
await stop();
process.stderr.write('\nDone. Point svc at the real service with `svc config set baseUrl URL` and `svc auth login`.\n');
