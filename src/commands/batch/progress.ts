/**
 * How the batch is going, on stderr. On a terminal, one live line rewritten in place (carriage
 * return and "erase line", no spinner library): done/total, failures, requests per second, ETA,
 * tokens, and a pause the service asked for. In a pipe or a log, nothing until one summary line at
 * the end ("50 requests: 48 succeeded, 2 failed (first: …), 3.2 s, 5,120 tokens").
 *
 * The summary is truthful: its counts add up to the input. Every request of the input is exactly
 * one of: succeeded, failed, already done (skipped: an earlier run has its line), interrupted (in
 * flight when the run was stopped) or not sent.
 */
import type { Usage } from '../../api/chat-types.js';
import { addUsage, addUsageOfModel, noUsage } from '../../conversations/model.js';
import { costOfSpent, formatCost, type Price } from '../../settings/prices.js';
import type { IO } from '../../terminal/io.js';

const ERASE_LINE = '\r\u001b[K';
/** Redraws at most this often: a fast batch would otherwise spend its time on the terminal. */
const REDRAW_MS = 100;

/**
 * 5120 → "5,120". Not toLocaleString: its first call loads ICU's locale data, a visible share
 * of a whole batch against a fast server.
 */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** What one finished request adds to the counts. */
export interface Finished {
  succeeded: boolean;
  usage: Usage;
  /** The model it went to: its tokens are priced by it. */
  model: string;
  /** Why it failed, for the summary's "(first: …)". */
  failure?: string | undefined;
  /** Why its reply was empty (api/reply-checks.ts emptyReplyNote), when it was. */
  empty?: string | undefined;
  /** Its custom_id, when a reply stopped at the token limit (finish_reason: length). */
  cut?: string | undefined;
}

/** How a run ended, for the summary. */
export interface Ending {
  /** Requests of the input skipped because an earlier run has their line. */
  alreadyDone: number;
  /** The run was stopped (Ctrl-C, SIGTERM, a refused key, stdout gone): requests in flight count as interrupted. */
  stopped: boolean;
}

export class Progress {
  succeeded = 0;
  failed = 0;
  /** Tokens of every answer this run, in all and per model. */
  readonly usage: Usage = noUsage();
  readonly usageByModel: Record<string, Usage> = {};
  /** Requests handed to the service so far (finished or in flight). */
  started = 0;
  empty = 0;
  /** Replies that stopped at the token limit: whole-looking lines that are not whole answers. */
  cut = 0;
  #firstFailure: string | undefined;
  #firstEmpty: string | undefined;
  #firstCut: string | undefined;
  readonly #io: IO;
  readonly #total: number;
  readonly #started: number;
  readonly #now: () => number;
  readonly #pausedMs: () => number;
  readonly #live: boolean;
  #drawnAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #shown = false;

  /** `total` is how many requests this run sends; `pausedMs` says how long a shared pause has left. */
  constructor(io: IO, total: number, pausedMs: () => number, now: () => number = Date.now) {
    this.#io = io;
    this.#total = total;
    this.#now = now;
    this.#started = now();
    this.#pausedMs = pausedMs;
    this.#live = io.stderrIsTTY && io.env.CI !== 'true' && !io.plain;
    if (this.#live) {
      this.#timer = setInterval(() => this.#draw(), 500);
      this.#timer.unref();
      this.#draw();
    }
  }

  get done(): number {
    return this.succeeded + this.failed;
  }

  /** A request is on its way. */
  start(): void {
    this.started += 1;
  }

  /** Count a finished request and redraw the live line (not more often than every 100 ms). */
  record(finished: Finished): void {
    if (finished.succeeded) this.succeeded += 1;
    else {
      this.failed += 1;
      this.#firstFailure ??= finished.failure;
    }
    if (finished.empty !== undefined) {
      this.empty += 1;
      this.#firstEmpty ??= finished.empty;
    }
    if (finished.cut !== undefined) {
      this.cut += 1;
      this.#firstCut ??= finished.cut;
    }
    addUsage(this.usage, finished.usage);
    addUsageOfModel(this.usageByModel, finished.model, finished.usage);
    if (this.#live && this.#now() - this.#drawnAt >= REDRAW_MS) this.#draw();
  }

  /** The live line's text. */
  line(): string {
    const elapsed = this.#now() - this.#started;
    const parts = [`${count(this.done)}/${count(this.#total)} done`];
    if (this.failed > 0) parts.push(`${count(this.failed)} failed`);
    const rate = elapsed > 0 ? (this.done * 1000) / elapsed : 0;
    if (this.done > 0) {
      parts.push(`${rate.toFixed(1)}/s`);
      parts.push(`ETA ${duration(((this.#total - this.done) / rate) * 1000)}`);
    }
    parts.push(`${count(this.usage.total_tokens)} tokens`);
    const paused = this.#pausedMs();
    if (paused > 0) parts.push(`rate limited: paused ${Math.ceil(paused / 1000)} s`);
    return `svc batch: ${parts.join(' · ')}`;
  }

  #draw(): void {
    this.#drawnAt = this.#now();
    // Cut to the terminal's width: a wrapped line cannot be erased with one carriage return.
    const columns = (this.#io.stderr as { columns?: number }).columns ?? 80;
    this.#io.stderr.write(`${ERASE_LINE}${this.line().slice(0, Math.max(10, columns - 1))}`);
    this.#shown = true;
  }

  /** Erase the live line (so a message can be printed cleanly). */
  clear(): void {
    if (this.#shown) this.#io.stderr.write(ERASE_LINE);
    this.#shown = false;
  }

  /** Stop the live line and print the summary. */
  finish(ending: Ending, prices: ReadonlyMap<string, Price> = new Map()): void {
    this.stopTicking();
    this.#io.stderr.write(`${this.summary(ending, prices)}\n`);
  }

  /** Stop the live line without a summary (stdout gone: nothing more is printed). */
  stopTicking(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.clear();
  }

  /** The tokens in words: "5,120 tokens (1,000 prompt + 4,120 completion)" and the cost when every model has a price. */
  #tokens(prices: ReadonlyMap<string, Price>): string {
    const { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } = this.usage;
    const split = total > 0 ? ` (${count(prompt)} prompt + ${count(completion)} completion)` : '';
    const cost = costOfSpent(this.usageByModel, prices);
    return `${count(total)} tokens${split}${cost === undefined || total === 0 ? '' : `, ${formatCost(cost)}`}`;
  }

  /** The summary as data (`svc batch --json`): the counts of the closing line, tokens split, the cost when known. */
  summaryObject(ending: Ending, prices: ReadonlyMap<string, Price>): Record<string, unknown> {
    const interrupted = ending.stopped ? this.started - this.done : 0;
    const cost = costOfSpent(this.usageByModel, prices);
    return {
      requests: this.#total + ending.alreadyDone,
      succeeded: this.succeeded,
      failed: this.failed,
      already_done: ending.alreadyDone,
      interrupted,
      not_sent: this.#total - this.started,
      empty_replies: this.empty,
      cut_at_token_limit: this.cut,
      seconds: Math.round(this.#now() - this.#started) / 1000,
      usage: { ...this.usage },
      cost_usd: cost === undefined ? null : Number(cost.toFixed(6)),
    };
  }

  /** The closing line; its counts add up to the input. */
  summary(ending: Ending, prices: ReadonlyMap<string, Price> = new Map()): string {
    const interrupted = ending.stopped ? this.started - this.done : 0;
    const notSent = this.#total - this.started;
    const total = this.#total + ending.alreadyDone;
    const failed = `${count(this.failed)} failed${this.#firstFailure ? ` (first: ${this.#firstFailure})` : ''}`;
    const parts = [`${count(this.succeeded)} succeeded`, failed];
    if (ending.alreadyDone > 0) parts.push(`${count(ending.alreadyDone)} already done`);
    if (interrupted > 0) parts.push(`${count(interrupted)} interrupted`);
    if (notSent > 0) parts.push(`${count(notSent)} not sent`);
    if (this.empty > 0) parts.push(`${count(this.empty)} with an empty reply (first: ${this.#firstEmpty})`);
    if (this.cut > 0) parts.push(`${count(this.cut)} cut at the token limit (first: ${this.#firstCut}; raise max_tokens)`);
    const elapsed = duration(this.#now() - this.#started);
    return `${count(total)} ${total === 1 ? 'request' : 'requests'}: ${parts.join(', ')}, ${elapsed}, ${this.#tokens(prices)}`;
  }
}
