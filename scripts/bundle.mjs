// Bundle the built code (dist/, from scripts/compile.mjs) into dist/bundle/ with rolldown: one
// small entry plus chunks for what commands load lazily, so `svc` reads a handful of files instead
// of hundreds, and render every help page into dist/bundle/help.json so `--help` needs no
// commander at all (bench/README.md has the start-up figures).
//
// CommonJS, not ES modules: Node 20 loads a CommonJS file synchronously, while each ES module
// goes through its asynchronous loader (URL resolution, a read on the thread pool, linking), which
// measured slower for the same chunks (bench/README.md).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rolldown } from 'rolldown';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry content hashes: start empty so no stale chunk is shipped.
rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });

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
  // (core, terminal, settings, storage) in one chunk, undici in one, commander in one. Everything
  // else is split where the lazy imports split it.
  codeSplitting: {
    groups: [
      { name: 'undici', test: /node_modules[\\/]undici[\\/]/ },
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
