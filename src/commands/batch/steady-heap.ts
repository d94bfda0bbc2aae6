/**
 * A batch's memory stays near its live size however many requests it sends.
 *
 * Why: a batch's live heap is small and steady, but V8 lets the old generation grow to several
 * times the live size between full collections when collecting is cheap, and a long batch gets
 * there: its peak memory grew with its length while the live heap did not. A smaller growing step
 * makes V8 collect sooner; each full collection of a heap this small is quick. V8 reads the flag at
 * each collection, so setting it when the batch starts is enough; it holds for the rest of this
 * process only. Measured by the bench's batch-memory case (bench/run.mjs, `--only batch`; figures
 * in bench/README.md). V8 flags are no API: test/commands/batch-steady-heap checks that this
 * Node's V8 still knows it.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

export function keepHeapSteady(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
