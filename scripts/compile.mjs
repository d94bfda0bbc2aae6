// src/*.ts → dist/*.js, one file each, types stripped and nothing else: what `tsc` emitted, in
// about a second instead of ten. Type checking is `npm run typecheck` (tsc over src, test and
// scripts, with no output), which CI runs, as it runs lint; the build no longer checks types
// a second and third time (`npm ci` builds, `npm test` builds). A file at a time is safe because
// tsconfig.json sets isolatedModules and verbatimModuleSyntax: no file needs another's types to
// be turned into JavaScript.
import { readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
  .map((path) => `src/${path.split('\\').join('/')}`);

// Start empty, so a source file removed or renamed leaves no module behind in dist/.
rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: sources,
  outbase: 'src',
  outdir: 'dist',
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
