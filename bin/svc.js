#!/usr/bin/env node
// The launcher. `svc --version` and `svc [command] --help` (or `svc help [command]`) are answered
// here, from files made at build time (help pages rendered by commander: scripts/bundle.mjs),
// because start-up is a budget and every module loaded costs (bench/README.md). It is CommonJS
// (bin/package.json) since Node starts a CommonJS file sooner than an ES module.
// Everything else runs dist/bundle/cli.cjs.
'use strict';
const { mkdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const argv = process.argv.slice(2);

/**
 * Node's compile cache (Node 22.1 and later) for the code loaded after this: V8's compiled form of
 * svc's code, kept in svc's cache folder so the next command does not compile it again. Node keys
 * each entry by file and content, checks it before use and compiles afresh when it is missing or
 * damaged; a folder it cannot make leaves the cache off for this run. Node 20 runs without one.
 * The folder is made owner-only first, like everything svc keeps.
 */
function startCompileCache() {
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache !== 'function') return;
  const env = process.env;
  // node:os only when HOME is not set (src/settings/paths.ts: cacheDir, the same folder).
  const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(env.HOME || require('node:os').homedir(), '.cache');
  const folder = join(base, 'svc', 'compile-cache');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    enableCompileCache(folder);
  } catch {
    // No cache folder (a read-only home, a file in the way): this run compiles as it would anyway.
  }
}

/** The whole program (dist/bundle/cli.cjs). */
function runProgram() {
  startCompileCache();
  require('../dist/bundle/cli.cjs');
}
const last = argv.at(-1);
let answer;
try {
  const page = (words) => JSON.parse(readFileSync(join(__dirname, '..', 'dist', 'bundle', 'help.json'), 'utf8'))[words.join(' ')];
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
    answer = `${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`;
  } else if (last === '--help' || last === '-h') {
    answer = page(argv.slice(0, -1));
  } else if (argv[0] === 'help') {
    answer = page(argv.slice(1)); // `svc help auth login` is `svc auth login --help`
  }
} catch {
  answer = undefined; // no pages (a development build): commander answers
}
if (answer === undefined) runProgram();
else {
  process.stdout.on('error', () => {}); // reported through the write's callback
  process.stdout.write(answer, (error) => {
    // A reader that left (`| head -1`) is a quiet success. Any other failure (a full disk, a
    // descriptor not open for writing) goes to the full program, which meets it again and
    // reports it as every command does (src/stdout-check.ts): exit 1, never a lost page and 0.
    if (error && error.code !== 'EPIPE' && error.code !== 'ECONNRESET') runProgram();
  });
}
