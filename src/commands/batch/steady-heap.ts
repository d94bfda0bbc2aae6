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
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

/** The V8 flags a batch sets as it starts. */
export const STEADY_HEAP_FLAGS = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--semi-space-growth-factor=1'];

export function keepHeapSteady(): void {
  for (const flag of STEADY_HEAP_FLAGS) setFlagsFromString(flag);
}
