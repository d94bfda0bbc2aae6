// Run by test/help/fast-help: the launcher (bin/svc.js, named first) once for each command line
// given as JSON after it, in this one process instead of a process per line, as `svc ...WORDS`
// would run it. Prints a JSON array: for each line, what the launcher wrote to stdout while it
// loaded. The launcher answers --version and --help pages synchronously as it loads; a line it
// hands to the full program (dist/bundle/cli.cjs) writes nothing then and shows as ''.
'use strict';
const [launcher, lines] = [process.argv[2], JSON.parse(process.argv[3])];
const write = process.stdout.write;
process.stdout.setMaxListeners(0); // the launcher adds its 'error' listener once per load
const answers = [];
for (const words of lines) {
  let text = '';
  process.stdout.write = (chunk, callback) => {
    text += chunk;
    if (typeof callback === 'function') process.nextTick(callback);
    return true;
  };
  process.argv = [process.execPath, launcher, ...words];
  delete require.cache[launcher];
  require(launcher);
  process.stdout.write = write;
  answers.push(text);
}
process.stdout.write(JSON.stringify(answers));
