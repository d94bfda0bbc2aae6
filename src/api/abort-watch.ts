/**
 * Many requests watching one AbortSignal through a single listener on it.
 *
 * Why: svc batch sends thousands of requests under one signal (Ctrl-C). An `abort` listener
 * added and removed per request goes through Node's EventTarget each time, a measurable share of
 * a batch of small answers; here each request is one entry in a Set.
 */
type OnAbort = (reason: unknown) => void;

const watchers = new WeakMap<AbortSignal, Set<OnAbort>>();

/** Call `onAbort` with the signal's reason when it aborts; the returned function stops watching. */
export function watchAbort(signal: AbortSignal, onAbort: OnAbort): () => void {
  let callbacks = watchers.get(signal);
  if (callbacks === undefined) {
    const created = new Set<OnAbort>();
    callbacks = created;
    watchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        const due = [...created];
        created.clear();
        for (const callback of due) callback(signal.reason);
      },
      { once: true },
    );
  }
  const own = callbacks;
  own.add(onAbort);
  return () => {
    own.delete(onAbort);
  };
}
