// The renderer's cases of `npm run bench` (bench/run.mjs calls renderCases): module load cost,
// the latency rendering adds to a first token, and a 20,000-piece stream, rendered against raw,
// in-process and into a pseudo-terminal (util-linux `script`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const node = process.execPath;

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

/** Run pty-child.mjs under `script` (a 100-column pseudo-terminal); wall time, and when `marker` arrived. */
function underPty(args, marker) {
  return new Promise((resolve, reject) => {
    const line = `stty cols 100 2>/dev/null; exec ${node} ${here('./pty-child.mjs')} ${args.join(' ')}`;
    const started = performance.now();
    const child = spawn('script', ['-qfec', line, '/dev/null'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let seen;
    child.stdout.on('data', (data) => {
      if (seen === undefined && marker && data.includes(marker)) seen = performance.timeOrigin + performance.now();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - started, seenAt: seen }) : reject(new Error(`script ${args.join(' ')} exited ${code}`))));
  });
}

export async function renderCases({ say, table, budget, compare, stat, quick, runs, work }) {
  say('## Rendering Markdown on a terminal (src/render)');
  say();
  say('`bench/render/`: the streaming renderer against raw output (the neutralised text, written as it comes),');
  say('each in a fresh process. Nothing here runs when stdout is not a terminal: a pipe loads none of it.');
  say();

  // Module load cost of the bundled chunks, in a fresh process each time.
  const loads = [];
  for (let i = 0; i < (quick ? 1 : runs * 2); i++) loads.push(await measure(['load']));
  say('### Module load cost (ms, fresh process, ES module loader already started)');
  say();
  say('| module | median | min | max |');
  say('|---|---|---|---|');
  for (const key of ['renderer', 'highlighter', 'firstPythonBlock']) {
    const s = stat(loads, key);
    const label = { renderer: 'streaming renderer chunk', highlighter: 'highlight.js core + 26 languages (chunk)', firstPythonBlock: 'first python line highlighted (registers and compiles the language)' }[key];
    say(`| ${label} | ${s.median.toFixed(1)} | ${s.min.toFixed(1)} | ${s.max.toFixed(1)} |`);
  }
  say();

  // The first token: from push() to the bytes handed to write(), in-process.
  const first = await compare({ render: () => measure(['first', 'render']), raw: () => measure(['first', 'raw']) }, quick ? 1 : runs * 2);
  table('First token, in-process: push() to write() (ms)', first, 'ms', 'ms', 'raw');
  budget('render: first token, added over raw (ms, in-process)', stat(first.render, 'ms').median - stat(first.raw, 'ms').median, 5);

  // The first token into a pseudo-terminal: after a 300 ms hold (modules loaded by then, as they
  // are while svc waits for the service), from the hand-over to its arrival at the terminal's reader.
  const hold = 300;
  const firstPty = (mode) => async () => {
    const file = join(work, `sent-${mode}`);
    const { seenAt } = await underPty(['first', mode, String(hold), file], 'Hello');
    return { ms: seenAt - Number(readFileSync(file, 'utf8')) };
  };
  const firstInPty = await compare({ render: firstPty('render'), raw: firstPty('raw') }, quick ? 1 : runs);
  table(`First token into a pseudo-terminal, after a ${hold} ms hold (ms)`, firstInPty, 'ms', 'ms', 'raw');
  budget('render: first token into a pty, added over raw (ms)', stat(firstInPty.render, 'ms').median - stat(firstInPty.raw, 'ms').median, 5);

  // 20,000 pieces: in-process (the renderer's own cost) and into a pseudo-terminal (whole process).
  const pieces = quick ? 2000 : 20000;
  const inproc = await compare({ render: () => measure(['stream', 'render', String(pieces)]), raw: () => measure(['stream', 'raw', String(pieces)]) }, quick ? 1 : runs * 2);
  table(`${pieces} pieces, in-process: the pushes alone (ms)`, inproc, 'ms', 'ms', 'raw');
  const pty = await compare({ render: () => underPty(['stream', 'render', String(pieces)]), raw: () => underPty(['stream', 'raw', String(pieces)]) }, quick ? 1 : runs * 2);
  table(`${pieces} pieces into a pseudo-terminal: whole process, start to exit (ms)`, pty, 'ms', 'ms', 'raw');
  budget(`render: ${pieces} pieces into a pty, render / raw`, stat(pty.render, 'ms').median / stat(pty.raw, 'ms').median, 1.5);
}
