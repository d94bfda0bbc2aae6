/**
 * `svc batch`: check the whole input, skip what an earlier run finished, then send the rest with
 * at most N requests in flight, writing each record as it finishes. Ctrl-C or SIGTERM stops
 * sending, aborts what is in flight and keeps every finished line (exit 130); a refused key stops
 * everything at once (exit 3, its line not written, so a rerun with a good key redoes it).
 */
import { dirname, resolve } from 'node:path';
import { setMaxListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { defaultChatModel, modelsKnown, namedChatModel } from '../../chat/model-choice.js';
import type { AspectRatio, ImageFormat } from '../../api/images/formats.js';
import type { RequestFields } from '../../chat/request-fields.js';
import { chatParams, type RequestParams } from '../../core/request-params.js';
import { escapeJsonForTerminal } from '../../core/json.js';
import type { ResolvedSettings, SettingFlags } from '../../factory.js';
import { cacheDir } from '../../storage/paths.js';
import { promptWithRole, roleToUse, type RoleInUse } from '../../roles/fill-role.js';
import { removeStaleTempFiles } from '../../images/temp-image-file.js';
import { ExitCode, InterruptedError, SilentExit, SvcError, UsageError } from '../../core/errors.js';
import { describeLineProblems } from '../../storage/jsonl-file.js';
import { lockFile, LockedError, type HeldLock } from '../../storage/file-lock.js';
import { describeSystemError } from '../../core/system-errors.js';
import type { IO } from '../../terminal/io.js';
import { classifyStdoutError, stdoutFailure } from '../../terminal/stdout-check.js';
import { OutputWatch, textWriter } from '../../terminal/streams.js';
import type { CommandContext } from '../context.js';
import { dryRunCommand, noteKeyVariable } from '../dry-run.js';
import { checkFolder } from '../image-target.js';
import { checkInput, openInput, readEntries, type InputFormat, type InputSource } from './input.js';
import { keyHider } from './records.js';
import { fileSink, streamSink } from './output.js';
import { PoolPause } from './pause.js';
import { perform, type ImagesFolder } from './perform.js';
import { runPool } from './pool.js';
import { count, Progress, type Ending } from './progress.js';
import type { Price } from '../../settings/prices.js';
import type { BatchRequest, RequestDefaults } from './requests.js';
import { readPreviousRun } from './resume.js';

/** What `svc batch` runs: its flags, checked (batch.ts parseBatchFlags). */
export interface BatchPlan {
  input: { name: string; format: InputFormat };
  /** The output file, or undefined for stdout. */
  output: string | undefined;
  concurrency: number;
  imagesDir: string | undefined;
  retryFailed: boolean;
  chatFields: RequestFields;
  /** -m (the chat model), --base-url, --timeout, --max-retries. */
  settings: SettingFlags;
  system: string | undefined;
  image: { aspect: AspectRatio | undefined; format: ImageFormat | undefined; seed: number | undefined; negative: string | undefined };
  /** `--dry-run`: print each request as a curl command; send and write nothing. */
  dryRun?: boolean;
  /** `--extract` / `--extract-last`: the code of each chat answer in its record's `extract` field. */
  extract?: 'all' | 'last' | undefined;
  /** `--param KEY=VALUE`: fields added to every request body that does not set them. */
  params?: RequestParams;
  /** false with --no-metadata: images saved as the service sent them. */
  metadata?: boolean;
  /** `--json`: the summary as JSON on stdout (needs -o: without it stdout holds the results). */
  json?: boolean;
  /** `--role NAME`: a saved role for the chat requests. */
  role?: string | undefined;
  /** `--var NAME=VALUE`: the role's blanks. */
  vars?: Record<string, string>;
}

function defaultsFor(plan: BatchPlan, models: { chat: string; image: string }, storedParams: string | undefined, role: RoleInUse | undefined): RequestDefaults {
  return {
    // A role as in `svc chat --role`: flags over its defaults; -s over its system message.
    chat: { model: models.chat, system: plan.system ?? (role?.system || undefined), fields: { ...role?.fields, ...plan.chatFields } },
    image: { model: models.image, ...plan.image },
    // The profile's `params` setting is for chat requests (as in `svc chat`); --param for both kinds.
    params: { chat: chatParams(storedParams, role?.params, plan.params), image: plan.params ?? {} },
    ...(role?.prompt ? { wrapPrompt: (text: string) => promptWithRole(role, text) } : {}),
  };
}

/**
 * Whether the output file exists (a regular file, so a rerun resumes it); it must be in a folder
 * svc can write, and not be the input.
 */
function existingOutput(path: string, shownAs: string, source: InputSource): boolean {
  checkFolder(dirname(path), `-o ${shownAs}`);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return false;
  }
  if (stat.isDirectory()) throw new UsageError(`-o ${shownAs} is a folder; name a file for the results`);
  // A device or a pipe (-o /dev/null) is written to, but never read back to resume (/dev/full
  // reads as endless zeros, a pipe blocks) nor locked (no lock file beside a device in /dev).
  if (!stat.isFile()) return false;
  if (source.path !== undefined) {
    const input = statSync(source.path);
    if (input.ino === stat.ino && input.dev === stat.dev) throw new UsageError(`-o ${shownAs} is the input file itself; name another file for the results`);
  }
  return true;
}

/** Where images go: --images-dir, else beside the output file, else the current folder. */
function imagesFolder(io: IO, plan: BatchPlan): ImagesFolder {
  const shown = plan.imagesDir ?? (plan.output === undefined ? '.' : dirname(plan.output));
  const dir = resolve(io.cwd, shown);
  // A folder named for the images is made when missing (as `mkdir -p`); one that cannot be is said by checkFolder.
  if (plan.imagesDir !== undefined && !existsSync(dir)) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      // checkFolder below says why, in the usual words.
    }
  }
  checkFolder(dir, plan.imagesDir === undefined ? `the images folder ${shown}` : `--images-dir ${shown}`);
  removeStaleTempFiles(dir);
  return { dir, shown };
}

/** The requests that still need sending: those the check kept, or the input read again. */
async function* toSend(source: InputSource, kept: BatchRequest[] | undefined, defaults: RequestDefaults, previous: ReadonlyMap<string, boolean>, retryFailed: boolean): AsyncGenerator<BatchRequest> {
  const pending = (request: BatchRequest): boolean => {
    const before = previous.get(request.customId);
    return !(before === true || (before === false && !retryFailed));
  };
  if (kept !== undefined) {
    for (const request of kept) if (pending(request)) yield request;
    return;
  }
  for await (const entry of readEntries(source, defaults)) {
    if ('problem' in entry) throw new SvcError(`${source.name} changed while the batch ran: line ${entry.line}: ${entry.problem}`, { hint: 'the lines written so far are kept; rerun to finish' });
    if (pending(entry.request)) yield entry.request;
  }
}

/**
 * A batch's memory stays near its live size however many requests it sends.
 *
 * Why: a batch's live heap is small and steady, but V8 lets its heap grow well past that in two
 * ways, and a long batch meets both. The young generation doubles whenever the objects that
 * survived its collections since it last grew add up to its size, which the requests in flight
 * always do after a few thousand requests: on Node 24 it then grows to several times its start
 * size and stays there. A growth factor of 1 keeps it at its start size. The old generation grows
 * to several times the live size between full collections when collecting is cheap; a smaller
 * growing step makes V8 collect sooner, and each full collection of a heap this small is quick.
 * V8 reads both flags when it decides to grow, so setting them when the batch starts is enough;
 * they hold for the rest of this process only. Measured by the bench's batch-memory case
 * (bench/run.mjs, `--only batch`; figures in bench/RESULTS.md). V8 flags are no API:
 * test/commands/batch-steady-heap checks that this Node's V8 still knows them.
 */
export const HEAP_GROWING_PERCENT = 30;

/** The V8 flags a batch sets as it starts. */
export const STEADY_HEAP_FLAGS = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--semi-space-growth-factor=1'];

export function keepHeapSteady(): void {
  for (const flag of STEADY_HEAP_FLAGS) setFlagsFromString(flag);
}

export async function sendBatch(plan: BatchPlan, context: CommandContext): Promise<void> {
  const { factory } = context;
  const { io } = factory;
  // The role's blanks are checked here, before the input is read or anything sent.
  const role = roleToUse(io.env, plan.role, plan.vars);
  keepHeapSteady();
  const source = openInput(io, plan.input.name, plan.input.format, context.signal);
  let lock: HeldLock | undefined;
  try {
    const outputPath = plan.output === undefined ? undefined : resolve(io.cwd, plan.output);
    const exists = outputPath !== undefined && existingOutput(outputPath, plan.output!, source);
    // One run writes a results file at a time: a second is refused before it reads or sends anything.
    // Locked by its real path: a second run through a symbolic link to it is the same file.
    const lockable = outputPath !== undefined && (exists || !existsSync(outputPath));
    if (lockable && !plan.dryRun) lock = lockOutput(exists ? realpathSync(outputPath) : outputPath, plan.output!);
    const previous = exists ? readPreviousRun(outputPath!) : undefined;
    if (previous && previous.problems.length > 0) io.say(describeLineProblems(plan.output!, previous.problems));
    const outcomes = previous?.outcomes ?? new Map<string, boolean>();
    // The settings first, so the check makes each request as it will be sent (the check may keep them).
    const settings = await factory.settings(plan.settings);
    // The chat model as `svc chat` chooses it; when nobody named one, the service's list settles it,
    // read from the cache here: nothing is sent before the input is known to be good.
    const named = namedChatModel(settings.model, role?.model);
    const place = settings.baseUrl.value === undefined ? undefined : { baseUrl: settings.baseUrl.value, cache: cacheDir(io.env), fallback: settings.model.value };
    const chatModel = named ?? (place ? await defaultChatModel(place, undefined) : settings.model.value);
    let defaults = defaultsFor(plan, { chat: chatModel, image: settings.imageModel.value }, settings.params.value, role);
    const checked = await checkInput(source, defaults, outcomes);
    let keptRequests = checked.requests;
    if (plan.dryRun) {
      await printBatchDryRun(io, settings, toSend(source, keptRequests, defaults, outcomes, plan.retryFailed));
      return;
    }
    const images = checked.image > 0 ? imagesFolder(io, plan) : { dir: io.cwd, shown: '.' };
    const skippedFailures = plan.retryFailed ? 0 : checked.failedBefore;
    const toGo = checked.total - checked.doneBefore - skippedFailures;
    if (checked.doneBefore + checked.failedBefore > 0) {
      const failedNote = skippedFailures > 0 ? ` (${skippedFailures} of them failed: --retry-failed redoes those)` : '';
      io.say(`${count(checked.doneBefore + skippedFailures)} already done${failedNote}, ${count(toGo)} to go`);
    }
    const prices = await factory.prices();
    if (toGo === 0) {
      if (plan.json) writeSummary(io, new Progress(io, 0, () => 0), { alreadyDone: checked.doneBefore + skippedFailures, stopped: false }, prices);
      if (skippedFailures > 0) throw new SilentExit(ExitCode.failure);
      return;
    }

    const pause = new PoolPause();
    // Retries are not announced one by one: the progress line shows a shared pause.
    // As many connections as requests in flight, reused: never more (createDispatcher says why).
    const client = (await factory.apiClient(settings, { connections: plan.concurrency })).derive({ pause, onRetry: () => {} });
    // A service never asked for its models, and chat requests to send: asked once, now.
    if (named === undefined && place && checked.chat > 0 && !modelsKnown(place)) {
      const listed = await defaultChatModel(place, client, context.signal);
      if (listed !== chatModel) {
        defaults = defaultsFor(plan, { chat: listed, image: settings.imageModel.value }, settings.params.value, role);
        keptRequests = undefined; // made with the other model: read again
      }
    }
    // The key is known once the client is made; it is taken out of every line and failure shown.
    const hider = keyHider(factory.loadedApiKey());
    const sink = outputPath === undefined ? streamSink(io.stdout, io.stdoutIsTTY, hider.json) : fileSink(outputPath, plan.output!, hider.json);
    const run = new AbortController();
    // Each request in flight listens for the abort (undici, the pause): more than Node's default 10.
    setMaxListeners(plan.concurrency * 4 + 10, run.signal);
    const stop = (): void => run.abort();
    context.signal.addEventListener('abort', stop, { once: true });
    if (context.signal.aborted) stop();
    // The results go to stdout and its reader left (`| head -1`): nothing more can be delivered,
    // so no request starts and those in flight are stopped, as a SIGPIPE would.
    const readerGone = outputPath === undefined ? new OutputWatch(io.stdout, stop) : undefined;
    const progress = new Progress(io, toGo, () => pause.remaining());
    const metadata = plan.metadata !== false && settings.imageMetadata.value === 'on';
    const warn = (note: string): void => {
      progress.clear();
      io.warn(note);
    };
    const ending = { alreadyDone: checked.doneBefore + skippedFailures, stopped: false };
    const finish = (how: Ending): void => {
      progress.finish(how, prices);
      if (plan.json) writeSummary(io, progress, how, prices);
    };
    try {
      await runPool(
        toSend(source, keptRequests, defaults, outcomes, plan.retryFailed),
        plan.concurrency,
        async (request) => {
          progress.start();
          try {
            const done = await perform(request, { client, signal: run.signal, images, extract: plan.extract, metadata, warn });
            await sink.write(done.record);
            progress.record(done.failure === undefined ? done : { ...done, failure: hider.text(done.failure) });
          } catch (error) {
            // Whatever stops one worker stops them all: a refused key, Ctrl-C, an output that fails.
            run.abort();
            throw error;
          }
        },
        () => readerGone?.gone === true || run.signal.aborted,
      );
    } catch (error) {
      if (readerGone?.gone) return stoppedByStdout(progress, io, readerGone);
      finish({ ...ending, stopped: true });
      throw context.signal.aborted ? new InterruptedError() : error;
    } finally {
      readerGone?.dispose();
      context.signal.removeEventListener('abort', stop);
      sink.close();
    }
    if (readerGone?.gone) return stoppedByStdout(progress, io, readerGone);
    if (context.signal.aborted) {
      finish({ ...ending, stopped: true });
      throw new InterruptedError();
    }
    finish(ending);
    if (progress.failed + skippedFailures > 0) throw new SilentExit(ExitCode.failure);
  } finally {
    lock?.release();
    source.dispose();
  }
}

/** `--json`: the closing summary as one JSON object on stdout (free: the results are in the -o file). */
function writeSummary(io: IO, progress: Progress, ending: Ending, prices: ReadonlyMap<string, Price>): void {
  progress.stopTicking();
  io.stdout.write(`${JSON.stringify(progress.summaryObject(ending, prices))}\n`);
}

/**
 * stdout, where the results go, can take no more. Its reader left (`| head -1`): nothing more is
 * printed, and the exit is SIGPIPE's 141, not 0, since the batch did not finish (rerun it with
 * -o to keep results in a file). Any other failure is reported by main as a lost output (exit 1).
 */
function stoppedByStdout(progress: Progress, io: IO, watch: OutputWatch): never {
  progress.stopTicking();
  if (watch.error !== undefined && classifyStdoutError(io.stdout, watch.error).kind === 'failed') throw stdoutFailure(watch.error);
  throw new SilentExit(ExitCode.readerGone);
}

/** The results file's lock, or a usage error (exit 2, nothing sent) naming the run that holds it. */
function lockOutput(path: string, shownAs: string): HeldLock {
  try {
    return lockFile(path);
  } catch (error) {
    if (!(error instanceof LockedError)) throw new SvcError(`cannot lock ${shownAs}: ${describeSystemError(error)}; nothing was sent`, { cause: error });
    const owner = error.owner ? ` (process ${error.owner.pid} on ${error.owner.host}, since ${error.owner.since})` : '';
    throw new UsageError(`-o ${shownAs} is being written by another svc batch${owner}; nothing was sent`, {
      hint: `wait for it to finish, or choose another -o; if no svc batch is running, remove ${error.path}`,
    });
  }
}

/**
 * `svc batch --dry-run`: every line is checked as for a real run, and every request a real run
 * would send (those an earlier run's -o file holds a result for are skipped, as then) is printed
 * as a curl command under a `# custom_id` comment: the output is a shell script. All of them,
 * not a sample: a script can keep what it needs (`| head -n 20`), and a request left out could
 * be the one a bug report is about. Nothing is written, no key is read.
 */
async function printBatchDryRun(io: IO, settings: ResolvedSettings, requests: AsyncIterable<BatchRequest>): Promise<number> {
  const write = textWriter(io.stdout);
  let printed = 0;
  for await (const request of requests) {
    if (io.stdout.destroyed) break; // the reader has left (| head)
    // The endpoints perform.ts posts to; batch bodies never stream (body-checks.ts).
    const endpoint = request.kind === 'chat' ? 'chat/completions' : 'images/generations';
    // JSON-quoted, so a custom_id with a newline cannot end the comment line.
    await write(`${printed > 0 ? '\n' : ''}# custom_id: ${escapeJsonForTerminal(JSON.stringify(request.customId))}\n${dryRunCommand(settings, endpoint, request.body, false)}\n`);
    printed++;
  }
  noteKeyVariable(io);
  return printed;
}
