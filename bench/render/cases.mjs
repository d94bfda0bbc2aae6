// The rendering cases of `npm run bench` (bench/run.mjs calls renderCases): `svc chat` against
// `svc chat --raw` end to end on a pseudo-terminal (util-linux `script`, 100 columns), for the
// first token and for a 20,000-chunk stream; and, in-process, the renderer module alone: its
// load cost, a first token and the same stream, against the neutralised text --raw writes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startFirstTokenServer, startStreamServer } from '../servers.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const node = process.execPath;
const svcBin = here('../../bin/svc.js');
const quote = (text) => `'${text.replace(/'/g, "'\\''")}'`;

/** Run a node script and parse the JSON it prints. */
function measure(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [here('./inproc.mjs'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (data) => (out += data));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`inproc ${args.join(' ')} exited ${code}`))));
  });
}

/**
 * `svc args…` with a pseudo-terminal (100 columns) as stdin, stdout and stderr, as a person runs
 * it; the terminal's output is read as fast as it comes. Wall time, and the arrival time of the
 * first output holding `marker` (performance.timeOrigin + now, comparable across processes).
 */
function svcInPty(args, env, marker) {
  return new Promise((resolve, reject) => {
    const line = `stty cols 100 rows 40 2>/dev/null; exec ${quote(node)} ${quote(svcBin)} ${args.map(quote).join(' ')}`;
    const started = performance.now();
    const child = spawn('script', ['-qfec', line, '/dev/null'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let seenAt;
    child.stdout.on('data', (data) => {
      if (seenAt === undefined && marker !== undefined && data.includes(marker)) seenAt = performance.timeOrigin + performance.now();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - started, seenAt }) : reject(new Error(`svc ${args.join(' ')} in a pty exited ${code}`))));
  });
}

export async function renderCases({ say, table, budget, compare, stat, quick, runs, env: baseEnv }) {
  // A colour terminal: rendering with highlighting, as most people see it.
  const env = { ...baseEnv, TERM: 'xterm-256color' };
  delete env.NO_COLOR;
  say('## Rendering Markdown on a terminal');
  say();
  say('`svc chat` (rendered) against `svc chat --raw` (the text as sent, neutralised), each run with a');
  say('pseudo-terminal as stdin, stdout and stderr (util-linux `script`, 100 columns, colour on). In a pipe');
  say('none of the renderer is loaded (test/e2e/lean-loading checks the chunks a piped chat imports), so');
  say('the pipe cases above are what `svc chat` costs there.');
  say();

  // The first token: the server holds it 300 ms, as a service thinks; the renderer loads meanwhile.
  {
    const hold = 300;
    const server = await startFirstTokenServer(hold);
    const serverEnv = { ...env, SVC_BASE_URL: server.url };
    const latency = (args) => async () => {
      const { seenAt } = await svcInPty(['chat', '--no-save', ...args, 'first'], serverEnv, 'X');
      return { ms: seenAt - server.sent.at(-1) };
    };
    const samples = await compare({ 'svc chat': latency([]), 'svc chat --raw': latency(['--raw']) }, quick ? 1 : runs * 2);
    server.close();
    table(`First token on a terminal: from the chunk leaving the server (held ${hold} ms) to its text on the terminal (ms)`, samples, 'ms', 'ms', 'svc chat --raw');
    budget('render: first token on a terminal, svc chat over svc chat --raw (ms)', stat(samples['svc chat'], 'ms').median - stat(samples['svc chat --raw'], 'ms').median, 5);
  }

  // 20,000 chunks as fast as the server sends them, through svc onto the terminal.
  {
    const chunks = quick ? 2000 : 20000;
    const server = await startStreamServer(chunks);
    const serverEnv = { ...env, SVC_BASE_URL: server.url };
    const whole = (args) => () => svcInPty(['chat', '--no-save', ...args, 'stream'], serverEnv);
    const samples = await compare({ 'svc chat': whole([]), 'svc chat --raw': whole(['--raw']) }, quick ? 1 : runs * 2);
    server.close();
    table(`A stream of ${chunks} chunks onto a terminal: whole process, start to exit (ms)`, samples, 'ms', 'ms', 'svc chat --raw');
    budget(`render: ${chunks} chunks onto a terminal, svc chat / svc chat --raw`, stat(samples['svc chat'], 'ms').median / stat(samples['svc chat --raw'], 'ms').median, 1.5);
  }

  // The renderer module alone, in-process (bench/render/inproc.mjs).
  const loads = [];
  for (let i = 0; i < (quick ? 1 : runs * 2); i++) loads.push(await measure(['load']));
  say('### The renderer module alone, in-process: load cost (ms, fresh process, ES module loader already started)');
  say();
  say('| part | median | min | max |');
  say('|---|---|---|---|');
  for (const [key, label] of [
    ['chunk', 'terminal-renderer chunk: the streaming renderer, highlight.js core and 26 languages'],
    ['firstPythonLine', 'first python line highlighted (registers and compiles the language)'],
  ]) {
    const s = stat(loads, key);
    say(`| ${label} | ${s.median.toFixed(1)} | ${s.min.toFixed(1)} | ${s.max.toFixed(1)} |`);
  }
  say();
  const first = await compare({ render: () => measure(['first', 'render']), raw: () => measure(['first', 'raw']) }, quick ? 1 : runs * 2);
  table('The renderer module alone: a first token, push() to write() (ms)', first, 'ms', 'ms', 'raw');
  const pieces = quick ? 2000 : 20000;
  const inproc = await compare({ render: () => measure(['stream', 'render', String(pieces)]), raw: () => measure(['stream', 'raw', String(pieces)]) }, quick ? 1 : runs * 2);
  table(`The renderer module alone: ${pieces} pieces, the pushes (ms)`, inproc, 'ms', 'ms', 'raw');
}
