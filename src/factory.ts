/**
 * Lazy, memoised getters for what commands need: stores, settings, the key, the API client.
 * Nothing here runs until a command asks, so `--help` needs no key, no config file and no
 * network stack (gh's cmdutil.Factory, adapted).
 */
import type { ApiClient, RetryNotice } from './api/client.js';
import { debugLogger } from './debug.js';
import { UsageError } from './errors.js';
import type { IO } from './io.js';
import { envApiKey, missingKeyError, resolveApiKey, type ResolvedKey } from './settings/api-key.js';
import { sendsKeyInClear } from './settings/plain-http.js';
import { settingNames, type ResolvedValue, type SettingName } from './settings/definitions.js';
import { resolveSetting, type Resolved } from './settings/resolve.js';
import type { JsonStore } from './settings/store.js';
import { userAgent } from './version.js';

/** Raw values of the flags that override settings, as commander parsed them. */
export type SettingFlags = Partial<Record<SettingName, string | undefined>>;

export type ResolvedSettings = { [N in SettingName]: Resolved<ResolvedValue<N>> };

export interface Factory {
  readonly io: IO;
  configStore(): Promise<JsonStore>;
  credentialsStore(): Promise<JsonStore>;
  settings(flags: SettingFlags): Promise<ResolvedSettings>;
  apiKey(): Promise<ResolvedKey | undefined>;
  /** The key if it was already loaded (for redaction): never reads a file. */
  loadedApiKey(): string | undefined;
  /** A client for the settings a command resolved (base URL, timeout, retries). */
  apiClient(settings: ResolvedSettings): Promise<ApiClient>;
  /** Release sockets so the process can exit at once. */
  dispose(): Promise<void>;
}

function memo<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= make());
}

function describeRetry(io: IO, notice: RetryNotice): void {
  // cli.md: on a terminal a retry says so; in scripts stderr stays quiet unless something fails.
  if (!io.stderrIsTTY) return;
  const seconds = (notice.delayMs / 1000).toFixed(1);
  io.stderr.write(`svc: ${notice.reason}; retrying in ${seconds} s (${notice.retry} of ${notice.maxRetries})\n`);
}

/** How the API client waits before a retry; by default a real, abortable timer. */
export type RetryWait = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export function createFactory(io: IO, seams: { retryWait?: RetryWait } = {}): Factory {
  const closers: Array<() => Promise<void>> = [];
  const configStore = memo(async () => (await import('./settings/store.js')).openStore(io.env, 'config'));
  const credentialsStore = memo(async () => (await import('./settings/store.js')).openStore(io.env, 'credentials'));
  let loadedKey: string | undefined;
  const apiKey = memo(async () => {
    // With SVC_API_KEY set, the credentials file is not even read.
    const resolved = resolveApiKey(io.env, envApiKey(io.env) ? undefined : await credentialsStore());
    loadedKey = resolved?.key;
    return resolved;
  });

  async function settings(flags: SettingFlags): Promise<ResolvedSettings> {
    const inputs = { flags, env: io.env, stored: (await configStore()).all() };
    const entries = settingNames.map((name) => [name, resolveSetting(name, inputs)] as const);
    return Object.fromEntries(entries) as ResolvedSettings;
  }

  async function apiClient(resolved: ResolvedSettings): Promise<ApiClient> {
    const baseUrl = resolved.baseUrl.value;
    if (baseUrl === undefined) {
      throw new UsageError('no service base URL is set', {
        hint: 'pass --base-url, set SVC_BASE_URL, or run `svc config set baseUrl https://…` (try `svc emulator` for a local one)',
      });
    }
    const key = await apiKey();
    if (!key) throw missingKeyError();
    if (sendsKeyInClear(baseUrl)) {
      io.stderr.write(`svc: warning: ${baseUrl} is plain http:// to another machine: the API key travels unencrypted (use https://)\n`);
    }
    const timeoutMs = Math.round(resolved.timeout.value * 1000);
    const { ApiClient, createDispatcher } = await import('./api/client.js');
    const dispatcher = createDispatcher(timeoutMs);
    closers.push(() => dispatcher.destroy());
    const debug = debugLogger(io, () => key.key);
    return new ApiClient({
      baseUrl,
      apiKey: key.key,
      userAgent,
      timeoutMs,
      maxRetries: resolved.maxRetries.value,
      dispatcher,
      onRetry: (notice) => describeRetry(io, notice),
      ...(debug ? { debug } : {}),
      ...(seams.retryWait ? { sleep: seams.retryWait } : {}),
    });
  }

  return {
    io,
    configStore,
    credentialsStore,
    settings,
    apiKey,
    loadedApiKey: () => loadedKey ?? envApiKey(io.env),
    apiClient,
    async dispose() {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
