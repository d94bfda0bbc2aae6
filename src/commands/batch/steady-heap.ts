/**
 * A batch's memory stays near its live size however many requests it sends.
 *
 * Why: a batch's live heap is small and steady (about 8 MB at 1,200 and at 12,000 requests), but
 * V8 lets the old generation grow to several times the live size between full collections when
 * collecting is cheap, and a long batch gets there: peak RSS grew by a third from 1,200 to
 * 12,000 requests while the live heap did not grow at all. A smaller growing step makes V8
 * collect sooner (each full collection of this heap takes a few milliseconds); bench/README.md
 * has the figures. V8 reads this flag at each collection, so setting it once the batch starts
 * is enough; it holds for the rest of this process only. The launcher sets the same value
 * before anything loads (bin/v8-flags.js: a code cache is only taken with the flags it was made
 * with); this sets it where svc runs without the launcher.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

export function keepHeapSteady(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
