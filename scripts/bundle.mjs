// Bundle the built code (dist/, from scripts/compile.mjs) into dist/bundle/: one small entry plus one chunk per
// lazily imported command, so `svc` reads a handful of files instead of hundreds (loading undici
// alone takes half the time bundled), and render every help page into dist/bundle/help.json so
// `--help` needs no commander at all (bench/RESULTS.md has the start-up figures).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry content hashes: start empty so no stale chunk is shipped.
rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });

/**
 * undici's HTTP/1.1 client requires its HTTP/2 code at load, and with it node:http2, node:tls and
 * node:crypto: about 12 ms of every request, for a protocol svc does not ask for (undici speaks
 * it only with `allowH2` and a TLS server that agrees). This loads that module the first time it
 * is called; test/e2e/lean-loading checks that a chat loads neither http2 nor tls.
 */
const lazyHttp2 = {
  name: 'lazy-undici-http2',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/client-h2(\.js)?$/ }, (args) => {
      if (!/undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)) return undefined;
      // A plain name, so no absolute path of the build machine ends up in the bundle.
      return { path: 'undici-client-h2', namespace: 'svc-lazy', pluginData: join(args.resolveDir, 'client-h2.js') };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'svc-lazy' }, (args) => ({
      resolveDir: dirname(args.pluginData),
      loader: 'js',
      contents: `let real;\nmodule.exports = function connectH2(client, socket) {\n  real ??= require('./client-h2.js');\n  return real(client, socket);\n};\n`,
    }));
  },
};

/**
 * commander requires node:child_process at load, for executable subcommands (a file per
 * subcommand, spawned), which svc never declares: about 5 ms of every command's start-up. It gets
 * `spawn`, the only thing it uses of the module, loading it on first call. test/e2e/lean-loading
 * checks that a listing loads no child_process, and that commander still uses nothing else of it
 * (so an upgrade that does fails there, not in a user's hands).
 */
const lazyChildProcess = {
  name: 'lazy-commander-child-process',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:child_process$/ }, (args) => {
      if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(args.importer)) return undefined;
      return { path: 'commander-child-process', namespace: 'svc-lazy-child-process' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'svc-lazy-child-process' }, () => ({
      loader: 'js',
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };\n",
    }));
  },
};

await build({
  entryPoints: { cli: 'dist/cli.js' },
  plugins: [lazyHttp2, lazyChildProcess],
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  define: { SVC_VERSION: JSON.stringify(version) },
  // The WebP and JPEG codecs find their .wasm next to their own files; they stay package imports.
  external: ['@jsquash/webp', '@jsquash/webp/*', '@jsquash/jpeg', '@jsquash/jpeg/*'],
  // CommonJS packages inside an ES module bundle call require(): give them a real one.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

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
