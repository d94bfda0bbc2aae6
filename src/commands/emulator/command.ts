/** `svc emulator`: the local stand-in for the service (the @svc/emulator package, packages/emulator). */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { collect } from '../setting-flags.js';

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
    .action(async (flags) => {
      const { runEmulator } = await import('./run.js');
      await runEmulator(context.factory.io, context.signal, {
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
      });
    });
}
