/**
 * Lazy, memoised getters for what commands need: stores, settings, the key, the API client.
 * Nothing here runs until a command asks, so `--help` needs no key, no config file and no
 * network stack (gh's cmdutil.Factory, adapted).
 *
 * The modules behind the stores are small and nearly every command uses them, so they are
 * imported statically: each lazily imported module becomes its own group of bundle chunks, each
 * one more file to read at start-up. The API client (undici, the largest dependency) and the key
 * command (a child process) stay lazy: most commands that are not a request never load them.
 */
import type { ApiClient, RetryNotice } from './api/client.js';
import type { InputHistory } from './conversations/input-history.js';
import type { ConversationStore } from './conversations/store.js';
import { debugLogger } from './terminal/report-error.js';
import { UsageError } from './core/errors.js';
import type { IO } from './terminal/io.js';
import { API_KEY_ENV, envApiKey, hasStoredKey, missingKeyError, resolveApiKey, type ResolvedKey } from './settings/api-key.js';
import { sendsKeyInClear } from './core/loopback.js';
import { parseProfileName } from './core/names.js';
import { profileExists, unknownProfileError, type SelectedProfile } from './settings/profiles.js';
import { settingNames, type ResolvedValue, type SettingName } from './settings/definitions.js';
import { envOverridesOfStored, resolveSetting, settingOrigin, type Resolved } from './settings/resolve.js';
import { BrokenStoreFileError, openStore, type JsonStoreFile } from './settings/store.js';
import { readStoredKey, warnSkipped } from './settings/stored-key.js';
import { selectProfile } from './settings/profile-choice.js';
import { conversationStoreFor } from './conversations/store.js';
import { userAgent } from './core/version.js';
import { PRICES_KEY, readPrices, type Price } from './settings/prices.js';
import { CONTEXT_WINDOWS_KEY, readContextWindows } from './settings/context-windows.js';
import type { OpenTools, ToolRunner } from './chat/tool-runner.js';

/** Raw values of the flags that override settings, as commander parsed them. */
export type SettingFlags = Partial<Record<SettingName, string | undefined>>;

export type ResolvedSettings = { [N in SettingName]: Resolved<ResolvedValue<N>> };

/**
 * What a command does with a profile's files: `read` needs the profile to exist (a typo in
 * --profile is exit 2, never another service's settings); `create` stores something and makes
 * the profile if it is new (`svc auth login`, `svc config set`).
 */
export type ProfileUse = 'read' | 'create';

export interface Factory {
  readonly io: IO;
  /** The value of --profile, checked; given before the command runs (program.ts). */
  selectProfile(flag: string | undefined): void;
  /** The profile in use: --profile, SVC_PROFILE, `svc profiles use`, or `default`. */
  profile(): Promise<SelectedProfile>;
  /** The stored settings of the profile in use. */
  configStore(use?: ProfileUse): Promise<JsonStoreFile>;
  /** The stored key of the profile in use. */
  credentialsStore(use?: ProfileUse): Promise<JsonStoreFile>;
  /** The settings: flags, environment, the profile's stored ones. `create`: a profile not made yet stores none (`svc auth login`). */
  settings(flags: SettingFlags, use?: ProfileUse): Promise<ResolvedSettings>;
  apiKey(): Promise<ResolvedKey | undefined>;
  /** The prices set with `svc config set prices.MODEL IN/OUT` (none: no cost is shown). */
  prices(): Promise<ReadonlyMap<string, Price>>;
  /** The windows set with `svc config set contextWindow.MODEL N`, by model id. */
  contextWindows(): Promise<ReadonlyMap<string, number>>;
  /** The key if it was already loaded (for redaction): never reads a file. */
  loadedApiKey(): string | undefined;
  /**
   * A client for the settings a command resolved (base URL, timeout, retries). `connections`
   * bounds its keep-alive connections (svc batch: --concurrency; see createDispatcher); `key`
   * sends that key instead of the one in use (`svc auth login` checks the key it is given).
   */
  apiClient(settings: ResolvedSettings, options?: { connections?: number; key?: string }): Promise<ApiClient>;
  /** The saved conversations; damaged files it meets are named on stderr. */
  conversationStore(): Promise<ConversationStore>;
  /** Earlier inputs for the session's Up/Down; with `save` false (--no-save) read but never written. */
  inputHistory(save: boolean): Promise<InputHistory>;
  /** Start the MCP servers named and list their tools; they are stopped by dispose() if not before. */
  openTools(servers: readonly string[], signal: AbortSignal): Promise<ToolRunner>;
  /** Release sockets so the process can exit at once. */
  dispose(): Promise<void>;
}

/** The base URL a request goes to; none set is a usage error that says how to set one. */
export function requireBaseUrl(resolved: ResolvedSettings): string {
  const baseUrl = resolved.baseUrl.value;
  if (baseUrl === undefined) {
    throw new UsageError('no service base URL is set', {
      hint: 'pass --base-url, set SVC_BASE_URL, or run `svc config set baseUrl https://…` (try `svc emulator` for a local one)',
    });
  }
  return baseUrl;
}

function memo<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= make());
}

function describeRetry(io: IO, notice: RetryNotice): void {
  // On a terminal a retry says so; in scripts stderr stays quiet unless something fails.
  if (!io.stderrIsTTY) return;
  const seconds = (notice.delayMs / 1000).toFixed(1);
  io.note(`${notice.reason}; retrying in ${seconds} s (${notice.retry} of ${notice.maxRetries})`);
}

/** How the API client waits before a retry; by default a real, abortable timer. */
export type RetryWait = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** What a test may put in place of the real thing: how retries wait, where tools come from. */
export interface FactorySeams {
  retryWait?: RetryWait;
  openTools?: OpenTools;
}

export function createFactory(io: IO, seams: FactorySeams = {}): Factory {
  const closers: Array<() => Promise<void>> = [];
  let profileFlag: string | undefined;
  const profile = memo(async () => selectProfile(io, profileFlag));
  let loadedKey: string | undefined;
  const conversationStore = memo(async () => conversationStoreFor(io));
  const historyModule = memo(() => import('./conversations/input-history.js'));

  const savedInputHistory = memo(async () => (await historyModule()).inputHistoryFor(io));
  const unwrittenInputHistory = memo(async () => (await historyModule()).inputHistoryFor(io, false));

  /** One store object per file, so its writer (conf) is made once. */
  const stores = new Map<string, Promise<JsonStoreFile>>();
  async function profileStore(name: 'config' | 'credentials', use: ProfileUse): Promise<JsonStoreFile> {
    const selected = await profile();
    if (use === 'read' && !profileExists(io.env, selected.name)) throw unknownProfileError(io.env, selected.name, selected.source);
    const key = `${selected.dir}\0${name}`;
    let store = stores.get(key);
    if (!store) stores.set(key, (store = openStore(selected.dir, name)));
    return store;
  }
  const configStore = (use: ProfileUse = 'read') => profileStore('config', use);
  const credentialsStore = (use: ProfileUse = 'read') => profileStore('credentials', use);

  /**
   * The stored settings. A config.json that cannot be read is skipped and reported, not a reason
   * to fail a command whose settings come from flags and the environment (a setting the file
   * would have given then falls to its default, and the warning says why).
   */
  const storedSettings = memo(async () => {
    const store = await configStore();
    let values: Record<string, unknown> = {};
    try {
      values = store.all();
    } catch (error) {
      if (!(error instanceof BrokenStoreFileError)) throw error;
      warnSkipped(io, error, 'its settings are ignored');
    }
    await warnEnvOverProfile(values);
    return { values, path: store.path };
  });

  /**
   * `--profile NAME` typed while SVC_* variables override what that profile stores: one line
   * names them, as the environment wins (flag > environment > stored) and the user asked for the
   * profile. Only for a profile typed on the command line: SVC_PROFILE is the environment too.
   */
  async function warnEnvOverProfile(values: Record<string, unknown>): Promise<void> {
    const selected = await profile();
    if (selected.source !== 'flag') return;
    const names = envOverridesOfStored(io.env, values);
    if (envApiKey(io.env)) {
      const credentials = await credentialsStore();
      if (!credentials.problem() && hasStoredKey(credentials)) names.push(API_KEY_ENV);
    }
    if (names.length === 0) return;
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    io.warn(`${list} in the environment override${names.length === 1 ? 's' : ''} what the profile "${selected.name}" stores (unset ${names.length === 1 ? 'it' : 'them'} to use the profile's)`);
  }

  const prices = memo(async () => {
    const stored = await storedSettings();
    const { prices: read, broken } = readPrices(stored.values[PRICES_KEY]);
    // Said once, and the rest still priced: one bad entry never hides the others.
    if (broken.length > 0) io.warn(`${broken.join(', ')} in ${stored.path} ${broken.length === 1 ? 'is' : 'are'} not "IN/OUT"; no cost is shown for ${broken.length === 1 ? 'it' : 'them'} (fix with \`svc config set\`)`);
    return read;
  });

  const contextWindows = memo(async () => {
    const stored = await storedSettings();
    const { windows, broken } = readContextWindows(stored.values[CONTEXT_WINDOWS_KEY]);
    if (broken.length > 0) io.warn(`${broken.join(', ')} in ${stored.path} ${broken.length === 1 ? 'is' : 'are'} not a whole number of tokens; ${broken.length === 1 ? 'it is' : 'they are'} ignored (fix with \`svc config set\`)`);
    return windows;
  });

  const apiKey = memo(async () => {
    // With SVC_API_KEY set, the credentials file is not even read; the profile must still exist
    // (a typo in --profile is said, whatever the environment gives).
    const credentials = await credentialsStore();
    let resolved: ResolvedKey | undefined;
    if (envApiKey(io.env)) resolved = resolveApiKey(io.env, undefined);
    else {
      // A keyCommand beats the stored key: the user asked for the key to live elsewhere.
      const { value: command, source } = (await settings({})).keyCommand;
      if (command !== undefined) {
        const { keyFromCommand, KEY_COMMAND_TIMEOUT_MS } = await import('./settings/key-command.js');
        // The way out named where the command was set: the environment, or this profile's settings.
        const name = (await profile()).name;
        const undo = source === 'env' ? '`unset SVC_KEY_COMMAND`' : `\`svc config unset keyCommand${name === 'default' ? '' : ` --profile ${name}`}\``;
        resolved = { key: await keyFromCommand(command, io.env, KEY_COMMAND_TIMEOUT_MS, undo), source: 'command', command };
      } else resolved = readStoredKey(io, credentials);
    }
    loadedKey = resolved?.key;
    return resolved;
  });

  /**
   * Every setting, each resolved when first read: a bad value of a setting this command does not
   * use (SVC_IMAGE_MODEL for a chat) does not stop it, and one it uses stops it before sending.
   */
  async function settings(flags: SettingFlags, use: ProfileUse = 'read'): Promise<ResolvedSettings> {
    const unmade = use === 'create' && !profileExists(io.env, (await profile()).name);
    const stored = unmade ? { values: {}, path: undefined } : await storedSettings();
    const inputs = { flags, env: io.env, stored: stored.values, storedPath: stored.path };
    const resolved = {} as ResolvedSettings;
    for (const name of settingNames) {
      let value: Resolved<unknown> | undefined;
      Object.defineProperty(resolved, name, { enumerable: true, get: () => (value ??= resolveSetting(name, inputs)) });
    }
    return resolved;
  }

  async function apiClient(resolved: ResolvedSettings, options: { connections?: number; key?: string } = {}): Promise<ApiClient> {
    const baseUrl = requireBaseUrl(resolved);
    const key = options.key === undefined ? await apiKey() : { key: options.key };
    // A key given here is redacted from what svc prints, as the loaded one is.
    if (options.key !== undefined) loadedKey = options.key;
    if (!key) throw missingKeyError((await profile()).name);
    if (sendsKeyInClear(baseUrl)) {
      io.warn(`${baseUrl} is plain http:// to another machine: the API key travels unencrypted (use https://)`);
    }
    const timeoutMs = Math.round(resolved.timeout.value * 1000);
    const { ApiClient, createDispatcher, proxyFor, readProxySettings } = await import('./api/client.js');
    const dispatcher = await createDispatcher(timeoutMs, options.connections, io.env);
    const proxy = proxyFor(readProxySettings(io.env), baseUrl);
    closers.push(() => dispatcher.destroy());
    const debug = debugLogger(io, () => key.key);
    return new ApiClient({
      baseUrl,
      baseUrlOrigin: settingOrigin('baseUrl', resolved.baseUrl.source),
      proxy,
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

  /** The servers named, from this profile's `svc mcp` list, started through the MCP SDK (loaded only now). */
  const openProfileTools: OpenTools = async (servers, signal) => {
    const [{ profileServerStore }, { openToolbox }] = await Promise.all([import('./tools/servers.js'), import('./tools/toolbox.js')]);
    const configured = (await profileServerStore(await profile(), io, 'read')).read();
    return openToolbox(servers, { servers: configured, env: io.env, cwd: io.cwd, signal, onServerFailure: (error) => io.warn(error.message, error.hint) });
  };
  return {
    io,
    selectProfile(flag) {
      profileFlag = flag === undefined ? undefined : parseProfileName(flag, '--profile');
    },
    profile,
    configStore,
    credentialsStore,
    settings,
    prices,
    contextWindows,
    apiKey,
    loadedApiKey: () => loadedKey ?? envApiKey(io.env),
    apiClient,
    conversationStore,
    inputHistory: (save) => (save ? savedInputHistory() : unwrittenInputHistory()),
    async openTools(servers, signal) {
      const runner = await (seams.openTools ?? openProfileTools)(servers, signal);
      // Stopped once: by the command when it is done with them, or here when the command ends.
      const close = memo(() => runner.close());
      closers.push(close);
      return { get definitions() { return runner.definitions; }, describe: (name) => runner.describe(name), call: (name, args, callSignal) => runner.call(name, args, callSignal), close };
    },
    async dispose() {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
