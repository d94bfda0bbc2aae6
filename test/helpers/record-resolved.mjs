// A module resolve hook (registered by report-loaded-files.cjs): appends each resolved URL to
// the file named by SVC_TEST_FILES_OUT. Runs on the loader's thread; appendFileSync keeps every
// line even when the process exits at once.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(process.env.SVC_TEST_FILES_OUT, `${result.url}\n`);
  return result;
}
