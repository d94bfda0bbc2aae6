/**
 * The process entry. `svc --version` and `svc [command] --help` are answered from text made at
 * build time (scripts/bundle.mjs renders every help page with commander), so they load nothing
 * but this file: start-up is a budget (bench/RESULTS.md). Everything else loads run-cli.js.
 */
import { readFileSync } from 'node:fs';

/** Set by the bundler; absent in the tsc output, which then always takes the slow path. */
declare const SVC_VERSION: string | undefined;

function fastAnswer(argv: string[]): string | undefined {
  if (typeof SVC_VERSION !== 'string') return undefined;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) return `${SVC_VERSION}\n`;
  const last = argv.at(-1);
  if (last !== '--help' && last !== '-h') return undefined;
  try {
    const pages = JSON.parse(readFileSync(new URL('./help.json', import.meta.url), 'utf8')) as Record<string, string>;
    return pages[argv.slice(0, -1).join(' ')];
  } catch {
    return undefined; // no pages (a development build): commander will answer
  }
}

const argv = process.argv.slice(2);
const answer = fastAnswer(argv);
if (answer !== undefined) process.stdout.write(answer);
else await (await import('./run-cli.js')).run(argv);
