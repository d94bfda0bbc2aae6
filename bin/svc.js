#!/usr/bin/env node
// The launcher. `svc --version` and `svc [command] --help` (or `svc help [command]`) are answered
// here, from files made at build time (help pages rendered by commander: scripts/bundle.mjs),
// because start-up is a budget and every module loaded costs (bench/README.md). It is CommonJS
// (bin/package.json) since Node starts a CommonJS file sooner than an ES module (bench/README.md).
// Everything else runs dist/bundle/cli.cjs.
'use strict';
const { readFileSync, realpathSync } = require('node:fs');
const { join } = require('node:path');

const argv = process.argv.slice(2);

/**
 * The whole program (dist/bundle/cli.cjs), its code loaded through V8's code cache
 * (code-cache.js), with the command's V8 flags set first (v8-flags.js says why).
 */
function runProgram() {
  const { flags, mode } = require('./v8-flags.js').flagsFor(argv);
  require('node:v8').setFlagsFromString(flags.join(' '));
  try {
    const bundle = realpathSync(join(__dirname, '..', 'dist', 'bundle'));
    require('./code-cache.js').useCodeCache(bundle, mode);
  } catch {
    // No bundle folder to cache (a broken install): the require below says what is missing.
  }
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
