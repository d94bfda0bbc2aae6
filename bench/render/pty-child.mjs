// Run under `script` (stdout a pseudo-terminal) by bench/render/cases.mjs: the stream svc would
// write to a terminal, rendered or raw, as svc does it (one stdout write per piece).
//   node pty-child.mjs stream <render|raw> <chunks>      20,000 "w123 " pieces, as fast as they come
//   node pty-child.mjs first <render|raw> <hold-ms> <file> a first token after hold-ms; the time it
//                                                        was handed over is written to <file>
import { readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [what, mode, arg, file] = process.argv.slice(2);
const dir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const chunk = (prefix) => dir + readdirSync(dir).find((name) => name.startsWith(prefix));
const write = (bytes) => process.stdout.write(bytes);
let target;
if (mode === 'render') {
  // What svc loads on a terminal, and only there.
  const [{ createStreamingRenderer }, { createHighlighter }] = await Promise.all([import(chunk('streaming-renderer-')), import(chunk('highlight-'))]);
  target = createStreamingRenderer({ columns: () => process.stdout.columns ?? 80, color: true, hyperlinks: false, highlighter: createHighlighter(), write });
} else {
  const { neutraliseForTerminal } = await import('../../dist/terminal-text.js');
  target = { push: (text) => write(neutraliseForTerminal(text)), end: () => write('\n') };
}
if (what === 'stream') {
  for (let i = 0; i < Number(arg); i++) target.push(`w${i % 1000} `);
  target.end();
} else {
  await new Promise((resolve) => setTimeout(resolve, Number(arg)));
  writeFileSync(file, String(performance.timeOrigin + performance.now()));
  target.push('Hello');
  target.end();
}
