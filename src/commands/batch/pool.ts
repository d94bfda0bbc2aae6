/**
 * At most `concurrency` jobs at a time, taken in order from one source. Workers pull the next
 * job only when they are free, so the input is read no faster than the service answers.
 * `shouldStop` is asked before each job: once it says so, no new job starts, and the pool
 * resolves when the jobs in flight have ended. A job that throws stops the pool and the first
 * such error is thrown once every worker has ended.
 */
export async function runPool<T>(source: AsyncIterable<T>, concurrency: number, work: (job: T) => Promise<void>, shouldStop: () => boolean): Promise<void> {
  const jobs = source[Symbol.asyncIterator]();
  let failure: { error: unknown } | undefined;
  let exhausted = false;
  const worker = async (): Promise<void> => {
    while (!exhausted && failure === undefined && !shouldStop()) {
      // Concurrent next() calls on an async generator are queued by the generator itself.
      let next: IteratorResult<T>;
      try {
        next = await jobs.next();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (next.done) {
        exhausted = true;
        return;
      }
      if (failure !== undefined || shouldStop()) return;
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    if (!exhausted) await jobs.return?.(undefined);
  }
  if (failure !== undefined) throw failure.error;
}
