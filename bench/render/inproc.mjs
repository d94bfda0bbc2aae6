// One measurement of the streaming renderer in a fresh process, printed as JSON on stdout:
//   node bench/render/inproc.mjs load                 module load cost of the bundled chunks
//   node bench/render/inproc.mjs first <render|raw>   time from a first token to its bytes
//   node bench/render/inproc.mjs stream <render|raw> <chunks>   a stream of "w123 " chunks
// "raw" is what svc does without rendering: neutralise the text and write it. Both write into
// the same sink (bytes counted), so only the work between the text and stdout is measured.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [what, mode = 'render', count = '20000'] = process.argv.slice(2);
const dir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const chunk = (prefix) => dir + readdirSync(dir).find((file) => file.startsWith(prefix));
// The ES module loader's own start-up is paid once by every ES module import: pay it first.
await import('data:text/javascript,export default 1');

const t0 = performance.now();
const { createStreamingRenderer } = await import(chunk('streaming-renderer-'));
const t1 = performance.now();
const { createHighlighter } = await import(chunk('highlight-'));
const t2 = performance.now();
const { neutraliseForTerminal } = await import('../../dist/terminal-text.js');

let bytes = 0;
const sink = (text) => (bytes += text.length);
const make = () =>
  mode === 'render'
    ? createStreamingRenderer({ columns: () => 100, color: true, hyperlinks: false, highlighter: createHighlighter(), write: sink })
    : { push: (text) => sink(neutraliseForTerminal(text)), end() {} };

if (what === 'load') {
  const highlight = createHighlighter();
  const t3 = performance.now();
  highlight('def f(x):\n    return x', 'python');
  const t4 = performance.now();
  console.log(JSON.stringify({ renderer: t1 - t0, highlighter: t2 - t1, firstPythonBlock: t4 - t3 }));
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
