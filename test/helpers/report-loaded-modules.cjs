// Preloaded with `node -r` by test/e2e/lean-loading: at exit, writes the Node built-in modules
// the process loaded, one per line, to the file named by SVC_TEST_MODULES_OUT.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length));
  writeFileSync(process.env.SVC_TEST_MODULES_OUT, `${builtins.join('\n')}\n`);
});
