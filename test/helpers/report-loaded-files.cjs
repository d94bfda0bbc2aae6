// Preloaded with `node -r` by test/e2e/lean-loading: records every module file the process loads
// (its file URL, one per line) in the file named by SVC_TEST_FILES_OUT, so a test can tell which
// chunks of the bundle loaded. The bundle is CommonJS: what it required is in require.cache when
// the process exits; ES modules (the image codecs) are recorded as they resolve, through a module
// resolve hook (record-resolved.mjs).
'use strict';
const { appendFileSync } = require('node:fs');
const { register } = require('node:module');
const { pathToFileURL } = require('node:url');

register(pathToFileURL(require.resolve('./record-resolved.mjs')).href);
process.on('exit', () => {
  const files = Object.keys(require.cache).map((path) => `${pathToFileURL(path).href}\n`);
  appendFileSync(process.env.SVC_TEST_FILES_OUT, files.join(''));
});
