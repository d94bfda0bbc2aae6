// The benchmark harness (`npm run bench`): svc side by side with what a user would otherwise
// run, each case several times with the contenders alternating, medians and spreads written to
// bench/RESULTS.md. `--quick` (the CI smoke) runs everything once on small sizes and writes to
// --out instead; it asserts nothing about time.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderCases } from './render/cases.mjs';
import { batchInput, imageAnswer, startChatServer, startFirstTokenServer, startImageServer, startStreamServer } from './servers.mjs';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false }, runs: { type: 'string' }, out: { type: 'string' }, only: { type: 'string' } } });
const quick = args.quick;
// `--only preview` (or any name in SECTIONS): one case, to iterate on it.
const SECTIONS = ['startup', 'chat', 'stream', 'image', 'metadata', 'reader', 'first-token', 'render', 'search', 'batch', 'emulator-draw', 'preview'];
if (args.only !== undefined && !SECTIONS.includes(args.only)) throw new Error(`--only takes one of ${SECTIONS.join(', ')}`);
const want = (section) => args.only === undefined || args.only === section;
const runs = Number(args.runs ?? (quick ? 1 : 7));
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const svcBin = here('../bin/svc.js');
const node = process.execPath;
const work = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const baseEnv = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), XDG_DATA_HOME: join(work, 'data'), XDG_STATE_HOME: join(work, 'state'), XDG_CACHE_HOME: join(work, 'cache'), SVC_API_KEY: 'bench-key', NO_COLOR: '1' };
delete baseEnv.CI;

/**
 * Run a command, its stdout read from a pipe as a user's script would; wall time in ms and peak
 * RSS in MiB and CPU time in ms (from GNU time). `onMarker` gets the arrival time of the first stdout data that
 * contains `marker`.
 */
function run(command, commandArgs, { env = baseEnv, rss = false, marker, onMarker, input } = {}) {
  return new Promise((resolve, reject) => {
    const argv = rss ? ['/usr/bin/time', ['-f', '%U %S\n%M', command, ...commandArgs]] : [command, commandArgs];
    const started = performance.now();
    const child = spawn(argv[0], argv[1], { env, cwd: work, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin.end(input);
    let stderr = '';
    let marked = false;
    child.stdout.on('data', (data) => {
      if (!marked && marker && data.includes(marker)) {
        marked = true;
        onMarker?.(performance.timeOrigin + performance.now());
      }
    });
    child.stderr.on('data', (data) => (stderr += data));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      const tail = stderr.trim().split('\n');
      const rssMiB = rss ? Number(tail.at(-1)) / 1024 : undefined;
      // User + system CPU time of the process and its children: steadier than wall time on a busy machine.
      const cpuMs = rss ? tail.at(-2).split(' ').reduce((sum, seconds) => sum + Number(seconds) * 1000, 0) : undefined;
      resolve({ ms, rssMiB, cpuMs });
    });
  });
}

/**
 * Run each contender `times` times, alternating, after one warm-up round. The order rotates
 * every round, so no contender always runs right after the same other one.
 */
async function compare(contenders, times = runs) {
  const entries = Object.entries(contenders);
  const samples = Object.fromEntries(entries.map(([name]) => [name, []]));
  if (!quick) for (const [, make] of entries) await make();
  for (let i = 0; i < times; i++) {
    for (let j = 0; j < entries.length; j++) {
      const [name, make] = entries[(i + j) % entries.length];
      samples[name].push(await make());
    }
  }
  return samples;
}

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => {
  const s = sorted(values);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const stat = (samples, key) => {
  const values = samples.map((sample) => sample[key]);
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
};
const fmt = (n, digits = 1) => n.toFixed(digits);
const lines = [];
const budgets = [];
const say = (text = '') => {
  lines.push(text);
  console.log(text);
};

function table(title, samples, key, unit, reference) {
  say(`### ${title}`);
  say();
  say(`| contender | median | min | max | ratio to ${reference} |`);
  say('|---|---|---|---|---|');
  const ref = stat(samples[reference], key).median;
  for (const name of Object.keys(samples)) {
    const s = stat(samples[name], key);
    say(`| ${name} | ${fmt(s.median)} ${unit} | ${fmt(s.min)} | ${fmt(s.max)} | ${fmt(s.median / ref, 2)} |`);
  }
  say();
}

function budget(what, value, limit) {
  budgets.push(`| ${what} | ${fmt(value, 2)} | ${limit} | ${value <= limit ? 'met' : '**not met**'} |`);
}

/**
 * `count` conversation files as svc writes them: 2 to 8 turns of a few hundred characters each,
 * the word "kubernetes" in one conversation of a hundred, "answer" in every one.
 */
function writeConversations(dir, count) {
  mkdirSync(dir, { recursive: true });
  const words = 'the service replied with a long and careful explanation of streaming tokens retries timeouts and models'.split(' ');
  const sentence = (seed, length) => Array.from({ length }, (_, i) => words[(seed * 7 + i * 13) % words.length]).join(' ');
  let bytes = 0;
  let turns = 0;
  for (let n = 0; n < count; n++) {
    const name = `c${String(n).padStart(5, '0')}`;
    const created = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString();
    const records = [{ type: 'start', v: 1, name, created }];
    for (let t = 0; t < 2 + (n % 7); t++) {
      const user = `${sentence(n + t, 12)}${n % 100 === 0 && t === 1 ? ' on kubernetes' : ''}?`;
      records.push({ type: 'turn', user, assistant: `An answer: ${sentence(n * 3 + t, 60)}.\n\n${sentence(n + 5 * t, 40)}.`, model: 'svc-pro', usage: { prompt_tokens: 20, completion_tokens: 100, total_tokens: 120 }, at: created });
      turns += 1;
    }
    const text = `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
    writeFileSync(join(dir, `${name}.jsonl`), text);
    bytes += text.length;
  }
  return { bytes, turns };
}

const ratio = (samples, a, b, key = 'ms') => stat(samples[a], key).median / stat(samples[b], key).median;
const svc = (svcArgs, options) => () => run(node, [svcBin, ...svcArgs], options);

say(`# svc benchmarks`);
say();
say(`${quick ? 'Smoke run (--quick): one run each, small sizes; the numbers mean nothing.' : `Medians of ${runs} runs each (${runs * 5} for start-up, ${runs * 3} for the 20,000-chunk stream), contenders alternating in a rotating order, after a warm-up round.`}`);
say(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`);
say();

// 1. Startup.
if (want('startup')) {
  // Start-up runs are short and noisy on a shared machine: five times as many of them (the
  // smoke run, whose numbers mean nothing, runs everything once).
  const samples = await compare({ 'node -e 0': () => run(node, ['-e', '0']), 'svc --version': svc(['--version']), 'svc --help': svc(['--help']) }, quick ? runs : runs * 5);
  say('## Startup');
  say();
  table('wall time', samples, 'ms', 'ms', 'node -e 0');
  budget('startup: svc --version / node -e 0', ratio(samples, 'svc --version', 'node -e 0'), 1.15);
  budget('startup: svc --help / node -e 0', ratio(samples, 'svc --help', 'node -e 0'), 1.15);
}

// 2. One-shot non-streaming chat against the emulator.
if (want('chat')) {
  const { startEmulator } = await import('@svc/emulator');
  const emulator = await startEmulator({ apiKeys: ['bench-key'] });
  const env = { ...baseEnv, SVC_BASE_URL: emulator.baseUrl };
  const body = JSON.stringify({ model: 'svc-pro', temperature: 0, messages: [{ role: 'user', content: 'hello' }] });
  const samples = await compare({
    'svc chat --no-stream': svc(['chat', '--no-stream', '--no-save', '-t', '0', 'hello'], { env }),
    'openai package': () => run(node, [here('./clients/openai-chat.mjs'), 'hello'], { env }),
    curl: () => run('curl', ['-sS', '-X', 'POST', `${emulator.baseUrl}/v1/chat/completions`, '-H', 'authorization: Bearer bench-key', '-H', 'content-type: application/json', '-d', body], { env }),
  });
  await emulator.close();
  say('## One-shot chat, not streamed (emulator)');
  say();
  table('wall time', samples, 'ms', 'ms', 'openai package');
}

// 3. A stream of many small chunks, printed to a pipe; 2k, 20k and 200k chunks for scaling.
const streamSizes = !want('stream') ? [] : quick ? [2000] : [2000, 20000, 200000];
const streamRows = [];
for (const chunks of streamSizes) {
  const server = await startStreamServer(chunks);
  const env = { ...baseEnv, SVC_BASE_URL: server.url };
  const samples = await compare({
    'svc chat': svc(['chat', '--no-save', 'stream'], { env }),
    'openai package': () => run(node, [here('./clients/openai-stream.mjs')], { env }),
    'curl -sN': () => run('curl', ['-sN', '-X', 'POST', `${server.url}/v1/chat/completions`, '-H', 'content-type: application/json', '-d', '{}'], { env }),
    // The floor: Node copying the bytes with no parsing.
    'node:http copy': () => run(node, [here('./clients/node-http-stream.mjs')], { env }),
    // The budget's case gets three times the runs: its ratio sits near the limit and varies.
  }, chunks === 20000 ? runs * 3 : runs);
  server.close();
  say(`## Stream of ${chunks} chunks (${fmt(server.bytes / 1e6, 2)} MB of SSE) to a pipe`);
  say();
  table('wall time', samples, 'ms', 'ms', 'openai package');
  streamRows.push({ chunks, svc: stat(samples['svc chat'], 'ms').median, openai: stat(samples['openai package'], 'ms').median });
  if (chunks === 20000 || quick) {
    budget(`stream ${chunks}: svc / node:http copy`, ratio(samples, 'svc chat', 'node:http copy'), 1.5);
    budget(`stream ${chunks}: svc / openai package`, ratio(samples, 'svc chat', 'openai package'), 0.35);
  }
}

// 4. A large image: wall time and peak memory; 3, 24 and 96 MiB for scaling.
const imageSizes = !want('image') ? [] : quick ? [3] : [3, 24, 96];
const imageRows = [];
for (const sizeMiB of imageSizes) {
  const server = await startImageServer(sizeMiB);
  const env = { ...baseEnv, SVC_BASE_URL: server.url };
  let n = 0;
  const samples = await compare({
    'svc image': () => run(node, [svcBin, 'image', 'bench', '--force', '-o', join(work, `svc-${n++}.png`)], { env, rss: true }),
    // The same without writing the provenance into the file.
    'svc image --no-metadata': () => run(node, [svcBin, 'image', 'bench', '--force', '--no-metadata', '-o', join(work, `svc-${n++}.png`)], { env, rss: true }),
    'openai package + Buffer.from': () => run(node, [here('./clients/openai-image.mjs'), join(work, `openai-${n++}.png`)], { env, rss: true }),
  });
  server.close();
  say(`## Image of ${sizeMiB} MiB (${fmt(server.bytes / 1048576)} MiB of JSON)`);
  say();
  table('wall time', samples, 'ms', 'ms', 'openai package + Buffer.from');
  table('peak memory (max RSS)', samples, 'rssMiB', 'MiB', 'openai package + Buffer.from');
  imageRows.push({ sizeMiB, ms: stat(samples['svc image'], 'ms').median, rss: stat(samples['svc image'], 'rssMiB').median, openaiRss: stat(samples['openai package + Buffer.from'], 'rssMiB').median });
  if (sizeMiB === 24 || quick) {
    budget(`image ${sizeMiB} MiB memory: svc / openai`, ratio(samples, 'svc image', 'openai package + Buffer.from', 'rssMiB'), 0.5);
    budget(`image ${sizeMiB} MiB time: svc / openai`, ratio(samples, 'svc image', 'openai package + Buffer.from'), 1.0);
  }
}

// 4a. Writing an image's provenance into it (chunk insertion only):
// the bytes streamed into a temporary file with room made, then the record written, in-process.
if (want('metadata')) {
  const { TempImageFile } = await import(here('../dist/images/temp-image-file.js'));
  const { image } = imageAnswer(quick ? 3 : 24);
  const formats = { png: image };
  const record = { prompt: 'bench', revisedPrompt: 'A bench, revised. '.repeat(20), model: 'svc-vision', seed: 7, format: 'png', createdAt: new Date().toISOString(), svcVersion: '0' };
  const samples = await compare(Object.fromEntries(Object.entries(formats).map(([format, bytes]) => [`write the record into a ${fmt(bytes.length / 1048576)} MiB ${format}`, async () => {
    const file = new TempImageFile(work, { metadata: { prompt: 'bench' } });
    for (let at = 0; at < bytes.length; at += 65536) file.write(bytes.subarray(at, at + 65536));
    file.end();
    const started = performance.now();
    file.addProvenance(record);
    const ms = performance.now() - started;
    file.discard();
    return { ms };
  }])));
  say('## Writing the provenance into a saved image (in-process, after the bytes are on disk)');
  say();
  table('time', samples, 'ms', 'ms', Object.keys(samples)[0]);
  budget(`metadata: write the record into a ${quick ? 3 : 24} MiB PNG (ms)`, stat(Object.values(samples)[0], 'ms').median, 5);
}

// 4b. Why svc reads image answers with its own scanner: the same answer read from a file by
// svc's scanner, by stream-json (the well-kept streaming JSON parser) and by JSON.parse.
if (want('reader')) {
  const sizeMiB = quick ? 3 : 24;
  const { body, image } = imageAnswer(sizeMiB);
  const answer = join(work, 'answer.json');
  writeFileSync(answer, body);
  const readers = { "svc's scanner": 'svc-scanner.mjs', 'stream-json': 'stream-json.mjs', 'JSON.parse + Buffer.from': 'json-parse.mjs' };
  const out = (name) => join(work, `read-${name}.png`);
  // Each must write exactly the image, or its time means nothing.
  for (const [name, file] of Object.entries(readers)) {
    await run(node, [here(`./readers/${file}`), answer, out(file)]);
    if (!readFileSync(out(file)).equals(image)) throw new Error(`${name} did not write the image exactly`);
  }
  const samples = await compare(Object.fromEntries(Object.entries(readers).map(([name, file]) => [name, () => run(node, [here(`./readers/${file}`), answer, out(file)], { rss: true })])));
  rmSync(answer, { force: true });
  say(`## Reading a ${sizeMiB} MiB image answer (${fmt(body.length / 1048576)} MiB of JSON) from a file`);
  say();
  say('The reader of `svc image` against the alternatives, in one process each, reading the same file in 64 KiB pieces');
  say('and writing the decoded image (`bench/readers/`).');
  say();
  table('wall time', samples, 'ms', 'ms', 'stream-json');
  table('peak memory (max RSS)', samples, 'rssMiB', 'MiB', 'stream-json');
}

// 5. Time to first token: from the chunk leaving the server to its byte on svc's stdout.
if (want('first-token')) {
  const hold = 300;
  const server = await startFirstTokenServer(hold);
  const env = { ...baseEnv, SVC_BASE_URL: server.url };
  const latency = (command, commandArgs) => async () => {
    let seen = 0;
    await run(command, commandArgs, { env, marker: 'X', onMarker: (at) => (seen = at) });
    return { ms: seen - server.sent.at(-1) };
  };
  const samples = await compare({
    'svc chat': latency(node, [svcBin, 'chat', '--no-save', 'first']),
    'curl -sN': latency('curl', ['-sN', '-X', 'POST', `${server.url}/v1/chat/completions`, '-d', '{}']),
  });
  server.close();
  say(`## Time to first token (the server holds the first chunk ${hold} ms)`);
  say();
  say('Milliseconds from the chunk leaving the server to its text on stdout (svc prints the token,');
  say('curl the raw event line: curl is the floor of the loopback and the pipe).');
  say();
  table('added latency', samples, 'ms', 'ms', 'curl -sN');
  budget('first token: svc added latency (ms)', stat(samples['svc chat'], 'ms').median, 5);
}

// 6. Rendering on a terminal (bench/render/).
if (want('render')) await renderCases({ say, table, budget, compare, stat, quick, runs, env: baseEnv });

// 7. Searching and listing saved conversations: 10,000 of them, each budget a ratio to Node
// starting and doing nothing, measured in the same run.
if (want('search')) {
  const count = quick ? 500 : 10000;
  const dir = join(work, 'data', 'svc', 'conversations');
  const made = writeConversations(dir, count);
  const listingCache = join(work, 'cache', 'svc', 'conversation-list.jsonl');
  const grepArgs = (text) => ['-rilF', '--', text, dir];
  const samples = await compare({
    'node -e 0': () => run(node, ['-e', '0']),
    'svc sessions search (1% match)': svc(['sessions', 'search', 'kubernetes']),
    'svc sessions search (every one matches)': svc(['sessions', 'search', 'answer']),
    'grep -rilF (1% match)': () => run('grep', grepArgs('kubernetes')),
    'svc sessions list': svc(['sessions', 'list']),
    // The first listing, or one after every file changed: the listing cache is removed first
    // (outside the timing), so every file is read and the cache written.
    'svc sessions list (no cache yet)': () => {
      rmSync(listingCache, { force: true });
      return run(node, [svcBin, 'sessions', 'list']);
    },
    'svc sessions list -n 20': svc(['sessions', 'list', '-n', '20']),
    'svc sessions search -n 20 (every one matches)': svc(['sessions', 'search', '-n', '20', 'answer']),
    'svc sessions search -n 20 (1% match)': svc(['sessions', 'search', '-n', '20', 'kubernetes']),
  });
  rmSync(dir, { recursive: true, force: true });
  say(`## Searching and listing ${count} saved conversations (${fmt(made.bytes / 1e6)} MB, ${made.turns} turns)`);
  say();
  say('`svc sessions search` prints each matching conversation with its lines; grep only names the files (the floor: one pass over the bytes).');
  say();
  table('wall time', samples, 'ms', 'ms', 'grep -rilF (1% match)');
  budget(`search ${count} conversations, 1% match / node -e 0`, ratio(samples, 'svc sessions search (1% match)', 'node -e 0'), 20);
  budget(`search ${count} conversations, every one matches / node -e 0`, ratio(samples, 'svc sessions search (every one matches)', 'node -e 0'), 20);
  // With the listing cache the warm-up round made: what every listing after the first costs.
  budget(`list ${count} conversations / node -e 0`, ratio(samples, 'svc sessions list', 'node -e 0'), 3);
  // Every file's time is still looked at (one stat each), the newest 20 read; search stops
  // reading once 20 have matched.
  budget(`list -n 20 of ${count} conversations / node -e 0`, ratio(samples, 'svc sessions list -n 20', 'node -e 0'), 1.5);
  budget(`search -n 20 of ${count} conversations, every one matches / node -e 0`, ratio(samples, 'svc sessions search -n 20 (every one matches)', 'node -e 0'), 1.5);
}

// 8. svc batch: many requests against a server that answers at once, against a minimal Node
// client (the floor) and a shell loop over `svc chat` (what script authors do today); then peak
// memory at ten times the requests, which must stay nearly flat (the input is streamed).
if (want('batch')) {
  const server = await startChatServer();
  const env = { ...baseEnv, SVC_BASE_URL: server.url };
  const count = quick ? 200 : 2000;
  const loopCount = quick ? 5 : 40;
  const input = join(work, 'batch.jsonl');
  writeFileSync(input, batchInput(count, 200));
  const prompts = join(work, 'loop-prompts.txt');
  writeFileSync(prompts, Array.from({ length: loopCount }, (_, i) => `question ${i}`).join('\n') + '\n');
  let n = 0;
  // A fresh output file each run: an existing one would make svc batch skip what it holds.
  const samples = await compare({
    'svc batch': () => run(node, [svcBin, 'batch', input, '-o', join(work, `batch-out-${n++}.jsonl`), '--concurrency', '16'], { env }),
    'node:http client': () => run(node, [here('./clients/node-batch.mjs'), input, join(work, `node-out-${n++}.jsonl`), '16'], { env }),
  });
  const loop = await compare({
    [`shell loop, ${loopCount} × svc chat`]: () => run('sh', ['-c', `while IFS= read -r p; do "${node}" "${svcBin}" chat --no-save --no-stream --no-stdin "$p" >> "${join(work, 'loop-out.txt')}" || exit 1; done < "${prompts}"`], { env }),
  }, quick ? 1 : 3);
  say(`## Batch of ${count} chat requests, 16 in flight (server answers at once)`);
  say();
  table('wall time', samples, 'ms', 'ms', 'node:http client');
  const perLoop = stat(Object.values(loop)[0], 'ms').median / loopCount;
  say(`A shell loop over \`svc chat\` (one process and one connection per request) took ${fmt(perLoop)} ms a request (median of ${quick ? 1 : 3} loops of ${loopCount}): ${fmt((perLoop * count) / 1000)} s projected for ${count}, ${fmt((perLoop * count) / stat(samples['svc batch'], 'ms').median, 0)}× svc batch.`);
  say();
  budget(`batch ${count}: svc / node:http client`, ratio(samples, 'svc batch', 'node:http client'), 1.3);

  const small = quick ? 120 : 1200;
  const large = small * 10;
  const smallInput = join(work, 'batch-small.jsonl');
  const largeInput = join(work, 'batch-large.jsonl');
  writeFileSync(smallInput, batchInput(small, 2048));
  writeFileSync(largeInput, batchInput(large, 2048));
  const memory = await compare({
    [`svc batch, ${small} requests`]: () => run(node, [svcBin, 'batch', smallInput, '-o', join(work, `mem-out-${n++}.jsonl`), '--concurrency', '16'], { env, rss: true }),
    [`svc batch, ${large} requests`]: () => run(node, [svcBin, 'batch', largeInput, '-o', join(work, `mem-out-${n++}.jsonl`), '--concurrency', '16'], { env, rss: true }),
  });
  // Past the young generation's growth (a few thousand requests), memory must not grow at all:
  // three times the large batch, side by side with it. And the bound V8 takes only at start
  // (bench/README.md, "svc batch, memory"), as a user would set it: NODE_OPTIONS.
  const huge = large * 3;
  const hugeInput = join(work, 'batch-huge.jsonl');
  writeFileSync(hugeInput, batchInput(huge, 2048));
  const longer = await compare({
    [`svc batch, ${large} requests`]: () => run(node, [svcBin, 'batch', largeInput, '-o', join(work, `mem-out-${n++}.jsonl`), '--concurrency', '16'], { env, rss: true }),
    [`svc batch, ${huge} requests`]: () => run(node, [svcBin, 'batch', hugeInput, '-o', join(work, `mem-out-${n++}.jsonl`), '--concurrency', '16'], { env, rss: true }),
    [`svc batch, ${large} requests, NODE_OPTIONS=--max-semi-space-size=4`]: () => run(node, [svcBin, 'batch', largeInput, '-o', join(work, `mem-out-${n++}.jsonl`), '--concurrency', '16'], { env: { ...env, NODE_OPTIONS: '--max-semi-space-size=4' }, rss: true }),
  }, quick ? 1 : 3);
  server.close();
  say(`## Batch memory: ${small}, ${large} and ${huge} requests of 2 KB`);
  say();
  table('peak memory (max RSS)', memory, 'rssMiB', 'MiB', `svc batch, ${small} requests`);
  table('wall time', memory, 'ms', 'ms', `svc batch, ${small} requests`);
  say(`Past ${large} requests (medians of ${quick ? 1 : 3}, side by side; the last row is the bound V8 takes only at start, set as a user would):`);
  say();
  table('peak memory (max RSS), longer', longer, 'rssMiB', 'MiB', `svc batch, ${large} requests`);
  table('wall time, longer', longer, 'ms', 'ms', `svc batch, ${large} requests`);
  // Flat past warm-up, and a bound a user can count on (the memory of a batch is not the
  // machine's speed, so this one budget is in MiB).
  budget(`batch memory: ${huge} / ${large} requests (flat)`, ratio(longer, `svc batch, ${huge} requests`, `svc batch, ${large} requests`, 'rssMiB'), 1.1);
  budget(`batch memory: ${large} requests (MiB)`, stat(longer[`svc batch, ${large} requests`], 'rssMiB').median, 160);
}

// 9. The emulator draws every picture in the process that serves it, so a megapixel must stay
// well under a second (this budget was a timed test once; time belongs here, not in tests).
if (want('emulator-draw')) {
  const { planScene, drawScene } = await import('@svc/emulator/images');
  const plan = planScene('a lighthouse by the sea at night', 8);
  const name = 'drawScene 1024×1024';
  const samples = await compare({
    [name]: async () => {
      const started = performance.now();
      await drawScene(plan, 1024, 1024);
      return { ms: performance.now() - started };
    },
  });
  say('## The emulator drawing a megapixel (in-process)');
  say();
  table('wall time', samples, 'ms', 'ms', name);
  budget('emulator: draw a 1024×1024 scene (ms)', stat(samples[name], 'ms').median, 1000);
}

// 10. The preview of a 1-megapixel image on a terminal.
if (want('preview')) {
  const { startEmulator } = await import('@svc/emulator');
  const emulator = await startEmulator({ apiKeys: ['bench-key'] });
  const env = { ...baseEnv, SVC_BASE_URL: emulator.baseUrl };
  delete env.NO_COLOR;
  let n = 0;
  // In a pseudo-terminal of 100 × 40 made by `script`, so stdout is a terminal as for a user; the
  // emulator draws the same 1024 × 1024 picture every time (same prompt and seed), and its cost is
  // in every contender alike. Peak memory is svc's (GNU time reports the largest descendant).
  // For sixel svc asks the terminal its cell size (and DA1); `script` is no terminal that answers,
  // so the answers of one with 10 × 20-pixel cells are typed ahead, as a real one sends them.
  const SIXEL_TERMINAL_ANSWERS = '\x1b[6;20;10t\x1b[?62;4;22c';
  const inTerminal = (preview, format = 'png') => () =>
    run('script', ['-q', '-e', '-c', `stty cols 100 rows 40; ${node} ${svcBin} image "a lighthouse at dusk" --seed 7 --format ${format} -o ${join(work, `p-${n++}.${format}`)} --preview ${preview}`, '/dev/null'], {
      env,
      rss: true,
      ...(preview === 'sixel' ? { input: SIXEL_TERMINAL_ANSWERS } : {}),
    });
  const contenders = {
    'png, --preview none': inTerminal('none'),
    'png, half blocks': inTerminal('blocks'),
    'png, kitty': inTerminal('kitty'),
    'png, iTerm2': inTerminal('iterm'),
    'png, sixel': inTerminal('sixel'),
    'jpeg, --preview none': inTerminal('none', 'jpeg'),
    'jpeg, kitty': inTerminal('kitty', 'jpeg'),
    'webp, --preview none': inTerminal('none', 'webp'),
    'webp, kitty': inTerminal('kitty', 'webp'),
  };
  // Preview times differ by tens of milliseconds from run to run on a shared machine: at least 15
  // rounds, and the added time is the median of each round's difference to its own baseline
  // (the rounds alternate, so a slow spell of the machine falls on both sides of a pair).
  const samples = await compare(contenders, quick ? runs : Math.max(runs, 15));
  // svc's own account of one preview (SVC_DEBUG=1: decode, scale, encode, write), which no start-up
  // or machine noise blurs; its parts are readied while the service works (src/preview/warm-up.ts).
  const own = {};
  for (const [preview, format] of [['blocks', 'png'], ['kitty', 'png'], ['iterm', 'png'], ['sixel', 'png'], ['kitty', 'jpeg'], ['kitty', 'webp']]) {
    for (let i = 0; i < (quick ? 1 : 5); i++) {
      const out = await new Promise((resolve, reject) => {
        const child = spawn('script', ['-q', '-e', '-c', `stty cols 100 rows 40; ${node} ${svcBin} image "a lighthouse at dusk" --seed 7 --format ${format} -o ${join(work, `own-${n++}.${format}`)} --preview ${preview}`, '/dev/null'], {
          env: { ...env, SVC_DEBUG: '1' },
          cwd: work,
          stdio: ['pipe', 'pipe', 'ignore'],
        });
        child.stdin.end(preview === 'sixel' ? SIXEL_TERMINAL_ANSWERS : '');
        let text = '';
        child.stdout.on('data', (data) => (text += data.toString('latin1')));
        child.on('error', reject);
        child.on('close', () => resolve(text));
      });
      const line = /preview: [^\r\n]*ms: ([^\r\n]*)/.exec(out);
      if (!line) throw new Error(`no preview debug line for ${preview} ${format}: ${out.slice(-300)}`);
      const parts = Object.fromEntries(line[1].split(', ').map((part) => part.split(' ')).map(([step, ms]) => [step, Number(ms)]));
      (own[`${format}, ${preview}`] ??= []).push({ ...parts, total: Object.values(parts).reduce((a, b) => a + b, 0) });
    }
  }
  await emulator.close();
  say('## Preview of a 1-megapixel image (1024 × 1024, emulator) in a 100 × 40 terminal');
  say();
  say('`svc image` with each preview against the same run without one (`--preview none`), in a');
  say('pseudo-terminal; the added time is the median over the rounds of each run minus its round\'s');
  say('`--preview none` run (the difference of the two medians is shown beside it).');
  say();
  table('wall time', samples, 'ms', 'ms', 'png, --preview none');
  table('CPU time (user + system)', samples, 'cpuMs', 'ms', 'png, --preview none');
  table('peak memory (max RSS)', samples, 'rssMiB', 'MiB', 'png, --preview none');
  say('| preview | added wall ms (median of pairs) | difference of medians | added CPU ms (median) | added MiB (median) |');
  say('|---|---|---|---|---|');
  for (const name of Object.keys(contenders)) {
    if (name.endsWith('none')) continue;
    const base = `${name.split(',')[0]}, --preview none`;
    const addedMs = median(samples[name].map((sample, i) => sample.ms - samples[base][i].ms));
    const ofMedians = stat(samples[name], 'ms').median - stat(samples[base], 'ms').median;
    const addedCpu = stat(samples[name], 'cpuMs').median - stat(samples[base], 'cpuMs').median;
    const addedMiB = stat(samples[name], 'rssMiB').median - stat(samples[base], 'rssMiB').median;
    say(`| ${name} | ${fmt(addedMs)} | ${fmt(ofMedians)} | ${fmt(addedCpu)} | ${fmt(addedMiB)} |`);
    budget(`preview ${name}: added ms`, addedMs, 100);
    budget(`preview ${name}: added MiB`, addedMiB, 30);
  }
  say();
  say('svc\'s own account of the preview once the image is saved (`SVC_DEBUG=1`), medians in ms:');
  say();
  say('| preview | decode | scale | encode | write | total |');
  say('|---|---|---|---|---|---|');
  for (const [name, list] of Object.entries(own)) {
    say(`| ${name} | ${['decode', 'scale', 'encode', 'write', 'total'].map((step) => fmt(median(list.map((entry) => entry[step])))).join(' | ')} |`);
  }
  say();
}

// How cost grows.
say('## How cost grows');
say();
say('| stream chunks | svc ms | ms per 1000 chunks | openai ms |');
say('|---|---|---|---|');
for (const row of streamRows) say(`| ${row.chunks} | ${fmt(row.svc)} | ${fmt((row.svc / row.chunks) * 1000, 2)} | ${fmt(row.openai)} |`);
say();
say('| image MiB | svc ms | svc peak MiB | openai peak MiB |');
say('|---|---|---|---|');
for (const row of imageRows) say(`| ${row.sizeMiB} | ${fmt(row.ms)} | ${fmt(row.rss)} | ${fmt(row.openaiRss)} |`);
say();
if (streamRows.length > 1 && imageRows.length > 1) {
  const [small, , large] = streamRows;
  const perChunkGrowth = ((large.svc - small.svc) / (large.chunks - small.chunks)) * 1000;
  say(`Stream: beyond the fixed start-up cost, each extra 1000 chunks costs ${fmt(perChunkGrowth, 2)} ms (from ${small.chunks} to ${large.chunks}), so time grows linearly with the stream.`);
  const rss = imageRows.map((row) => row.rss);
  say(`Image: svc's peak memory goes from ${fmt(Math.min(...rss))} to ${fmt(Math.max(...rss))} MiB while the image grows ${imageRows.at(-1).sizeMiB / imageRows[0].sizeMiB}× (flat), against ${fmt(imageRows[0].openaiRss)} → ${fmt(imageRows.at(-1).openaiRss)} MiB for the openai package (linear); svc's time grows linearly with the bytes.`);
  say();
}

say('## Budgets');
say();
say('| budget | measured | limit | |');
say('|---|---|---|---|');
for (const row of budgets) say(row);
say();

rmSync(work, { recursive: true, force: true });
// A partial run (--quick, --only) never replaces the full results.
const out = args.out ?? (quick || args.only !== undefined ? join(tmpdir(), 'svc-bench-smoke.md') : here('./RESULTS.md'));
writeFileSync(out, `${lines.join('\n')}\n`);
console.error(`written to ${out}`);
