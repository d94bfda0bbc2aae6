// One in-process measurement of the renderer module as svc loads it (the bundled
// terminal-renderer chunk: the renderer and highlight.js), in a fresh process, printed as JSON:
//   node bench/render/inproc.mjs load                 load cost of the chunk, first python line highlighted
//   node bench/render/inproc.mjs first <render|raw>   time from a first token to its bytes
//   node bench/render/inproc.mjs stream <render|raw> <chunks>   a stream of "w123 " chunks
// "raw" is what `svc chat --raw` does with the text on a terminal: neutralise it and write it.
// Both write into the same sink (bytes counted), so only the work between the text and stdout is measured.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [what, mode = 'render', count = '20000'] = process.argv.slice(2);
const dir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const chunk = (prefix) => dir + readdirSync(dir).find((file) => file.startsWith(prefix));
// The ES module loader's own start-up is paid once by every ES module import: pay it first.
await import('data:text/javascript,export default 1');

const t0 = performance.now();
const { terminalRenderer } = await import(chunk('terminal-renderer-'));
const t1 = performance.now();
const { neutraliseForTerminal } = await import('../../dist/core/terminal-text.js');

let bytes = 0;
const sink = (text) => (bytes += text.length);
// A colour terminal of 100 columns without hyperlinks, as the pseudo-terminal cases run.
const make = () =>
  mode === 'render'
    ? terminalRenderer({ stream: { columns: 100 }, env: { TERM: 'xterm-256color' }, write: sink })
    : { push: (text) => sink(neutraliseForTerminal(text)), end() {} };

if (what === 'load') {
  const renderer = make();
  renderer.push('```python\n');
  const t2 = performance.now();
  renderer.push('def f(x):\n');
  const t3 = performance.now();
  renderer.end();
  console.log(JSON.stringify({ chunk: t1 - t0, firstPythonLine: t3 - t2 }));
} else if (what === 'first') {
  const target = make();
  const start = performance.now();
  target.push('Hello');
  const ms = performance.now() - start;
  target.end();
  console.log(JSON.stringify({ ms, bytes }));
} else {
  const pieces = Array.from({ length: Number(count) }, (_, i) => `w${i % 1000} `);
  const target = make();
  const start = performance.now();
  for (const piece of pieces) target.push(piece);
  target.end();
  console.log(JSON.stringify({ ms: performance.now() - start, bytes }));
}
