/**
 * `svc emulator`: the local stand-in for the service (the @svc/emulator package, packages/emulator,
 * loaded only when this command runs).
 */
import { networkInterfaces } from 'node:os';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { SvcError, UsageError } from '../../core/errors.js';
import type { IO } from '../../terminal/io.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { parseIntegerInRange } from '../../core/parse-values.js';
import { checkKeyShape } from '../../settings/api-key.js';
import { writeAndWait } from '../../terminal/streams.js';
import { describeSystemError } from '../../core/system-errors.js';
import type { CommandContext } from '../context.js';
import { collect } from '../setting-flags.js';

export interface EmulatorCommandOptions {
  port: string;
  host: string;
  apiKeys: string[];
  blockTerms: string[];
  delay: string;
  /** Extra chat model ids to serve. */
  models: string[];
  /** `--fail N:STATUS`, as typed. */
  fail: string[];
  cutAfter: string | undefined;
  latency: string;
  record?: string | undefined;
  cassette?: string | undefined;
  replay?: string | undefined;
  replayTiming?: boolean;
  /** `--text-only`: content parts refused, as a text-only server does. */
  textOnly?: boolean;
  /** `--context N`, as typed: every chat model's window, enforced. */
  context?: string | undefined;
}

export function emulatorCommand(context: CommandContext) {
  return new Command('emulator')
    .summary('run a local stand-in for the service')
    .description(
      'Serve the whole service API locally: for trying svc offline and for testing scripts.\n' +
        'Prints its base URL and accepted key(s) on stderr once listening; Ctrl-C stops it. GET /health answers 200, without\n' +
        'a key, once it is ready: a script waits on it (it is never counted by --fail nor held by --latency).',
    )
    .option('--port <n>', 'port to listen on; 0 picks a free one', '0')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'accepted API key (repeatable; default: one random key, printed)', collect)
    .option('--block <term>', 'add a term to the built-in blacklist (repeatable)', collect)
    .option('--delay <ms>', 'pause between tokens in milliseconds (an answer not streamed comes when its stream would end)', '0')
    .option('--model <id>', 'serve another chat model id too, listed by GET /v1/models (repeatable)', collect)
    .option('--fail <n:status>', 'answer the Nth API request (chat, images, models; not /health) with an error status, e.g. 2:429 (repeatable; for testing clients)', collect)
    .option('--cut-after <n>', 'cut every chat stream after N chunks, without [DONE] (for testing clients)')
    .option('--latency <ms>', 'wait this long before the first byte of every API answer (for testing clients)', '0')
    .option('--record <base-url>', 'forward every request to this server and keep each exchange in --cassette (your key passes through, never written)')
    .option('--cassette <dir>', 'where --record keeps the exchanges, one JSON file each')
    .option('--replay <dir>', 'answer only from the exchanges recorded in this folder')
    .option('--replay-timing', 'with --replay, stream with the recorded pauses')
    .option('--text-only', 'take message content as a string only, as a text-only server does: images (content parts) are a 400 naming content')
    .option('--context <tokens>', "give every chat model this context window and refuse a request that does not fit, as OpenAI does (400 context_length_exceeded)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc emulator --port 8080 --api-key test-key --delay 40\n' +
        '  $ SVC_BASE_URL=http://127.0.0.1:8080 SVC_API_KEY=test-key svc chat "hello"\n' +
        '  $ svc emulator --model gpt-4o-mini   # answer clients that ask for that model too\n' +
        '  $ svc emulator --fail 1:429 --fail 2:500 --cut-after 3 --latency 200   # faults, for testing a client\n' +
        '  $ until curl -sf http://127.0.0.1:8080/health >/dev/null; do sleep 0.1; done   # wait for it in a script\n' +
        '  $ svc emulator --record https://api.example.com --cassette tapes/   # then: svc emulator --replay tapes/',
    )
    .action((flags) =>
      runEmulator(context.factory.io, context.signal, {
        port: flags.port,
        host: flags.host,
        apiKeys: flags.apiKey ?? [],
        blockTerms: flags.block ?? [],
        delay: flags.delay,
        models: flags.model ?? [],
        fail: flags.fail ?? [],
        cutAfter: flags.cutAfter,
        latency: flags.latency,
        record: flags.record,
        cassette: flags.cassette,
        replay: flags.replay,
        replayTiming: flags.replayTiming === true,
        textOnly: flags.textOnly === true,
        context: flags.context,
      }),
    );
}

/** --record/--cassette/--replay, checked; resolved against the working folder. */
function cassetteOptions(options: EmulatorCommandOptions, cwd: string) {
  if (options.record !== undefined && options.replay !== undefined) throw new UsageError('--record and --replay cannot be used together');
  if (options.record !== undefined) {
    if (options.cassette === undefined) throw new UsageError('--record needs --cassette <dir>: where to keep the exchanges');
    let upstream: URL;
    try {
      upstream = new URL(options.record);
    } catch {
      throw new UsageError(`--record: "${options.record}" is not a URL (http://… or https://…)`);
    }
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new UsageError('--record takes an http:// or https:// URL');
    return { record: { upstream: upstream.href, dir: resolve(cwd, options.cassette) } };
  }
  if (options.cassette !== undefined) throw new UsageError('--cassette goes with --record (to replay, give the folder to --replay)');
  if (options.replayTiming === true && options.replay === undefined) throw new UsageError('--replay-timing goes with --replay');
  if (options.replay !== undefined) {
    // A typo in the folder would otherwise answer every request "not recorded".
    const dir = resolve(cwd, options.replay);
    let isFolder = false;
    try {
      isFolder = statSync(dir).isDirectory();
    } catch {
      throw new UsageError(`--replay: ${options.replay} does not exist`, { hint: 'give the folder an earlier --record --cassette wrote' });
    }
    if (!isFolder) throw new UsageError(`--replay: ${options.replay} is not a folder`, { hint: 'give the folder an earlier --record --cassette wrote' });
    return { replay: { dir, timing: options.replayTiming === true } };
  }
  return {};
}

/** `--fail 2:429` → [2, 429], checked. */
function parseFailure(text: string, statuses: readonly number[]): [number, number] {
  const match = /^(\d+):(\d{3})$/.exec(text);
  const number = match ? Number(match[1]) : 0;
  const status = match ? Number(match[2]) : 0;
  if (!match || number < 1 || !statuses.includes(status)) {
    throw new UsageError(`--fail: "${text}" is not N:STATUS (the request number from 1, and one of ${statuses.join(', ')})`, { hint: 'e.g. --fail 1:429 --fail 3:500' });
  }
  return [number, status];
}

/** 0.0.0.0 and :: mean every address: this machine reaches them on loopback, which svc trusts. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/**
 * A URL of the emulator (its base URL, its health URL) as this machine reaches it: loopback for a
 * wildcard address (http://0.0.0.0 is not an address to connect to, and svc would warn that the
 * key travels unencrypted).
 */
function usableUrl(host: string, url: string): string {
  if (!isWildcard(host)) return url;
  const usable = new URL(url);
  usable.hostname = host === '0.0.0.0' ? '127.0.0.1' : '[::1]';
  return usable.pathname === '/' && !url.endsWith('/') ? usable.href.slice(0, -1) : usable.href;
}

/** For a wildcard address: the addresses other machines use, said to be plain http on the network. */
function lanLines(host: string, baseUrl: string): string {
  if (!isWildcard(host)) return '';
  const port = new URL(baseUrl).port;
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((entry): entry is NonNullable<typeof entry> => entry !== undefined && !entry.internal && (host === '0.0.0.0' ? entry.family === 'IPv4' : true))
    .map((entry) => (entry.family === 'IPv6' ? `http://[${entry.address}]:${port}` : `http://${entry.address}:${port}`));
  if (addresses.length === 0) return '';
  return `  from other machines (plain http over the network: the key travels unencrypted): ${addresses.join(', ')}\n`;
}

export async function runEmulator(io: IO, signal: AbortSignal, options: EmulatorCommandOptions): Promise<void> {
  const port = parseIntegerInRange(options.port, '--port', 0, 65_535);
  const delayMs = parseIntegerInRange(options.delay, '--delay', 0, 60_000);
  for (const model of options.models) {
    if (!/^[\w.:/-]{1,128}$/.test(model)) throw new UsageError(`--model: "${model}" is not a usable model id (letters, digits, ".", "-", "_", ":", "/"; at most 128)`);
  }
  for (const key of options.apiKeys) {
    const problem = checkKeyShape(key);
    if (problem) throw new UsageError(`--api-key: ${problem}`);
  }
  const contextLength = options.context === undefined ? undefined : parseIntegerInRange(options.context, '--context', 1, 100_000_000);
  const cassette = cassetteOptions(options, io.cwd);
  // The emulator is a package of its own (packages/emulator), loaded only when this command runs.
  const { FAILABLE_STATUSES, startEmulator } = await import('@svc/emulator');
  const faults = {
    fail: new Map(options.fail.map((text) => parseFailure(text, FAILABLE_STATUSES))),
    cutAfter: options.cutAfter === undefined ? undefined : parseIntegerInRange(options.cutAfter, '--cut-after', 0, 1_000_000),
    latencyMs: parseIntegerInRange(options.latency, '--latency', 0, 600_000),
  };
  let emulator;
  try {
    emulator = await startEmulator({ host: options.host, port, apiKeys: options.apiKeys, blockTerms: options.blockTerms, delayMs, models: options.models, faults, textOnly: options.textOnly === true, contextLength, ...cassette });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${options.host} is already in use`, { hint: 'pick another with --port, or --port 0 for a free one' });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${options.host}: not an address of this machine`);
    throw error;
  }
  // Anyone who can reach a non-loopback address can use the emulator, and the key is printed
  // below for whoever sees this terminal or its log: say so before the key.
  const exposed = isLoopbackHost(options.host)
    ? ''
    : `svc emulator: warning: listening on ${options.host}, so other machines can reach it, and its API key is printed below\n` +
      '  keep it on this machine with --host 127.0.0.1\n';
  // The lines a user (or a script: `grep SVC_`) needs to point svc at it. Without them a
  // random port and key make the emulator unusable, so a stderr that refuses them (2>/dev/full)
  // stops it with exit 1 rather than leaving it running where nobody can find it.
  try {
    await writeAndWait(
      io.stderr,
      exposed +
        `svc emulator listening on ${emulator.baseUrl}\n` +
        // What a script waits on before its first request: that never takes a --fail meant for the test.
        `  ready when ${usableUrl(options.host, emulator.healthUrl)} answers 200 (no key; never counted by --fail)\n` +
        lanLines(options.host, emulator.baseUrl) +
        (cassette.record ? `  recording: every request goes on to ${cassette.record.upstream} with your own key, and is kept in ${cassette.record.dir}\n` : '') +
        (cassette.replay ? `  replaying: answers come only from ${cassette.replay.dir}\n` : '') +
        `  SVC_BASE_URL=${usableUrl(options.host, emulator.baseUrl)}\n` +
        // Recording, the client's own key goes on to the real server: the emulator has none to offer.
        (cassette.record ? '' : emulator.apiKeys.map((key) => `  SVC_API_KEY=${key}\n`).join('')) +
        'Press Ctrl-C to stop.\n',
    );
  } catch (error) {
    await emulator.close();
    throw new SvcError(`could not print the emulator's address and key on stderr: ${describeSystemError(error)}; it was stopped`);
  }
  if (!signal.aborted) await once(signal, 'abort');
  await emulator.close();
  io.say('svc emulator stopped');
}
