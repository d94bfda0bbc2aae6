/**
 * Import a module without the signal handlers it installs as a side effect.
 *
 * conf writes through `atomically`, which loads `when-exit`; on the first SIGINT/SIGTERM/SIGHUP
 * that one runs its callbacks and then sends the same signal to the process again, whatever
 * other handlers exist. svc handles Ctrl-C itself (in a session it stops only the reply), so
 * that second signal would end the session or skip the clean-up. conf's writes are synchronous,
 * so there is never a temporary file for those handlers to remove.
 * test/settings/quiet-signal-hooks.test.ts shows the re-sent signal and that this removes it.
 */
export async function importWithoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const signals = (): string[] => process.eventNames().filter((name): name is string => typeof name === 'string' && name.startsWith('SIG'));
  const before = new Map(signals().map((name) => [name, new Set(process.listeners(name as NodeJS.Signals))]));
  const module = await load();
  for (const name of signals()) {
    const existing = before.get(name);
    for (const listener of process.listeners(name as NodeJS.Signals)) {
      if (!existing?.has(listener)) process.removeListener(name, listener);
    }
  }
  return module;
}
