// Preloaded with `node -r` by test/e2e/lean-loading: records every ES module file the process
// imports (its resolved URL, one per line) in the file named by SVC_TEST_FILES_OUT, through a
// module resolve hook (record-resolved.mjs), so a test can tell which chunks of the bundle loaded.
'use strict';
const { register } = require('node:module');
const { pathToFileURL } = require('node:url');

register(pathToFileURL(require.resolve('./record-resolved.mjs')).href);
