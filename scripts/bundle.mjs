// Bundle the built code (dist/, from scripts/compile.mjs) into dist/bundle/ with rolldown: one
// small entry plus chunks for what commands load lazily, so `svc` reads a handful of files instead
// of hundreds, and render every help page into dist/bundle/help.json so `--help` needs no
// commander at all (bench/RESULTS.md has the start-up figures).
//
// CommonJS, not ES modules: Node 20 loads a CommonJS file synchronously, while each ES module
// goes through its asynchronous loader (URL resolution, a read on the thread pool, linking). With
// the same code in the same chunks, `svc chat` took 310 ms as ES modules and 280 ms as CommonJS,
// `svc config path` 220 and 180 (medians of 15 to 21 alternating runs, 2026-11-27; `node -e 0`
// 130): bench/README.md.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rolldown } from 'rolldown';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry content hashes: start empty so no stale chunk is shipped.
rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });

/**
 * undici's HTTP/1.1 client requires its HTTP/2 code at load, and with it node:http2, node:tls and
 * node:crypto: about 12 ms of every request, for a protocol svc does not ask for (undici speaks
 * it only with `allowH2` and a TLS server that agrees). This loads that module the first time it
 * is called; test/e2e/lean-loading checks that a chat loads neither http2 nor tls.
 */
const LAZY_H2 = '\0svc-lazy-undici-h2:';
const lazyHttp2 = {
  name: 'lazy-undici-http2',
  resolveId(source, importer) {
    if (!/^\.\/client-h2(\.js)?$/.test(source) || !importer || !/undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(importer)) return null;
    return `${LAZY_H2}${join(dirname(importer), 'client-h2.js')}`;
  },
  load(id) {
    if (!id.startsWith(LAZY_H2)) return null;
    // The real module's path is resolved by the bundler: required from here, it becomes a chunk of its own.
    return `let real;\nmodule.exports = function connectH2(client, socket) {\n  real ??= require(${JSON.stringify(id.slice(LAZY_H2.length))});\n  return real(client, socket);\n};\n`;
  },
};

/** A plugin giving the modules whose path matches `importer` the module `code` where they require `builtin`. */
function replaceBuiltin(name, builtin, importer, code) {
  const id = `\0svc-${name}`;
  return {
    name,
    resolveId: (source, from) => (source === builtin && from && importer.test(from) ? id : null),
    load: (loaded) => (loaded === id ? code : null),
  };
}

/**
 * commander requires node:child_process at load, for executable subcommands (a file per
 * subcommand, spawned), which svc never declares: about 5 ms of every command's start-up. It gets
 * `spawn`, the only thing it uses of the module, loading it on first call. test/e2e/lean-loading
 * checks that a listing loads no child_process, and that commander still uses nothing else of it
 * (so an upgrade that does fails there, not in a user's hands).
 */
const lazyChildProcess = replaceBuiltin(
  'lazy-commander-child-process',
  'node:child_process',
  /[\\/]commander[\\/]lib[\\/]command\.js$/,
  "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };\n",
);

/**
 * undici requires node:assert in 33 of its modules, only ever to call it (`assert(condition)`) on
 * its own invariants: loading node:assert cost every request about 4 ms of start-up. It gets a
 * function that loads node:assert the first time a check fails, so a failing check throws what
 * it always threw. test/e2e/lean-loading checks that a chat loads no node:assert, and that undici
 * still only calls it (an upgrade that uses more of it fails there, not in a user's hands).
 */
const lazyAssert = replaceBuiltin(
  'lazy-undici-assert',
  'node:assert',
  /[\\/]undici[\\/]lib[\\/]/,
  "module.exports = function assert(value, message) {\n  if (!value) require('node:assert')(value, message);\n};\n",
);

/**
 * Node's modules a module of the shared chunk may load: those nearly every command loads anyway.
 * A module that needs another (child_process to run an editor or a keyCommand, crypto...) stays
 * in a chunk of its own, loaded when it is used: in the shared chunk, its require() would run for
 * every command (test/e2e/lean-loading checks what a chat and a listing load).
 */
const CHEAP_BUILTINS = new Set(['fs', 'path', 'os', 'url', 'events', 'util', 'stream', 'buffer', 'process', 'string_decoder']);

function onlyCheapBuiltins(id) {
  const code = readFileSync(id, 'utf8');
  return [...code.matchAll(/\bfrom ['"]node:([\w/]+)['"]/g)].every((match) => CHEAP_BUILTINS.has(match[1]));
}

const bundle = await rolldown({
  input: { cli: 'dist/cli.js' },
  platform: 'node',
  plugins: [lazyHttp2, lazyChildProcess, lazyAssert],
  // The WebP and JPEG codecs find their .wasm next to their own files; they stay package imports.
  external: [/^@jsquash\//],
  transform: { define: { SVC_VERSION: JSON.stringify(version) } },
  logLevel: 'warn',
  // Dynamic imports that a static import elsewhere makes ineffective are expected here (a module
  // a command loads lazily may be one another loads at once); nothing else is let through.
  onLog(level, log, handler) {
    if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
  },
});
await bundle.write({
  dir: 'dist/bundle',
  format: 'cjs',
  entryFileNames: '[name].cjs',
  chunkFileNames: '[name]-[hash].cjs',
  // Readable names in stack traces; only the layout is squeezed.
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
  // Fewer, larger files where that costs nothing: the small modules nearly every command uses
  // (core, terminal, settings, storage) in one chunk, undici's HTTP/1.1 client in one, commander
  // in one. Everything else is split where the lazy imports split it. undici's request/stream/
  // connect helpers (lib/api) are needed only behind a proxy (src/api/undici-parts.ts): they stay
  // out of the client's chunk, which every request reads.
  codeSplitting: {
    groups: [
      { name: 'undici', test: (id) => /node_modules[\\/]undici[\\/]/.test(id) && !/proxy|socks|client-h2|[\\/]lib[\\/]api[\\/]/.test(id) },
      { name: 'commander', test: /node_modules[\\/]commander[\\/]/ },
      // svc's own dist/ only: the emulator package's dist/core/ is loaded by `svc emulator` alone.
      { name: 'base', test: (id) => /[\\/]dist[\\/](core|terminal|settings|storage|types)[\\/]/.test(id) && !/[\\/]packages[\\/]emulator[\\/]/.test(id) && onlyCheapBuiltins(id) },
    ],
  },
});
await bundle.close();

// Help pages exactly as commander prints them (80 columns, as for any non-terminal).
const { buildProgram } = await import('../dist/program.js');
const { InterruptRouter } = await import('../dist/terminal/interrupts.js');
const { createFactory } = await import('../dist/factory.js');
let captured = '';
const io = { env: {}, stdout: { write: (text) => (captured += text) }, stderr: { write: () => {} } };
const program = buildProgram({ factory: createFactory(io), signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) });
const pages = {};
const visit = (command, path) => {
  captured = '';
  command.configureOutput({ writeOut: (text) => (captured += text), getOutHelpWidth: () => 80 });
  command.outputHelp();
  pages[path.join(' ')] = captured;
  for (const sub of command.commands) visit(sub, [...path, sub.name()]);
};
visit(program, []);
writeFileSync(new URL('../dist/bundle/help.json', import.meta.url), JSON.stringify(pages));
