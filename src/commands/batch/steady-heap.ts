/**
 * A batch's memory stays near its live size however many requests it sends.
 *
 * Why: a batch's live heap is small and the same however many requests it sends, but V8 lets the
 * old generation grow to several times the live size between full collections when collecting
 * is cheap, and a long batch gets there: its peak memory would grow with its length while the
 * live heap does not. A smaller growing step makes V8 collect sooner, and a full collection of
 * a heap this small is cheap (bench/README.md, "svc batch, memory", has the figures). V8 reads
 * this flag at each collection, so setting it once the batch starts
 * is enough; it holds for the rest of this process only. The launcher sets the same value
 * before anything loads (bin/v8-flags.js: a code cache is only taken with the flags it was made
 * with); this sets it where svc runs without the launcher.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

export function keepHeapSteady(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
