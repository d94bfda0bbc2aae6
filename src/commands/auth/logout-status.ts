import { NetworkError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { cacheDir } from '../../storage/paths.js';
import { checkKey } from './check.js';
import { API_KEY_ENV, envApiKey, maskKey, missingKeyError, removeApiKey } from '../../settings/api-key.js';
import { profileOrigin } from '../../settings/profiles.js';
import { forOutput } from '../../core/terminal-text.js';

export async function runLogout(factory: Factory): Promise<void> {
  const { io } = factory;
  const credentials = await factory.credentialsStore();
  const broken = credentials.problem();
  if (broken?.replaceable) {
    // Whatever key the unreadable file holds is what logout is asked to remove.
    credentials.remove();
    io.note(`${broken.message}; removed it, and with it any key it held`);
  } else if (broken) {
    throw broken.refusingChange();
  } else {
    const removed = await removeApiKey(credentials);
    io.note(removed ? `removed the stored key from ${credentials.path}` : 'no key was stored');
  }
  if (envApiKey(io.env)) io.note(`note: ${API_KEY_ENV} is still set in this environment`);
}

const SOURCE_NAMES = { env: `environment (${API_KEY_ENV})`, command: 'command (keyCommand)', stored: 'stored (svc auth login)' } as const;
const SETTING_SOURCES = { flag: 'flag', env: 'environment (SVC_BASE_URL)', stored: 'stored setting', default: 'default' } as const;

/**
 * What is set (profile, key masked, base URL) and, unless --offline, what the service says of the
 * key: `check:` on stdout, and a refusal (exit 3) or a service out of reach (exit 6) as an error.
 */
export async function runStatus(factory: Factory, options: { offline: boolean }, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const profile = await factory.profile();
  const key = await factory.apiKey();
  const settings = await factory.settings({});
  const base = settings.baseUrl;
  io.stdout.write(`profile: ${profile.name}${profile.source === 'default' ? '' : ` from ${profileOrigin(profile.source)}`}\n`);
  const command = key?.command === undefined ? '' : `: ${forOutput(key.command, io.stdoutIsTTY)}`;
  io.stdout.write(`key: ${key ? `${maskKey(key.key)} from ${SOURCE_NAMES[key.source]}${command}` : 'none'}\n`);
  io.stdout.write(`base URL: ${base.value ? `${base.value} from ${SETTING_SOURCES[base.source]}` : 'none'}\n`);
  if (!key) throw missingKeyError(profile.name);
  const checked = (text: string): void => void io.stdout.write(`check: ${text}\n`);
  if (options.offline) return checked('skipped (--offline)');
  if (!base.value) return checked('not checked (no base URL)');
  let check;
  try {
    check = await checkKey(await factory.apiClient(settings), cacheDir(io.env), signal);
  } catch (error) {
    if (error instanceof NetworkError) checked('the service cannot be reached');
    throw error;
  }
  if (check.kind === 'accepted') checked('the service accepts the key');
  else if (check.kind === 'not-checked') checked(`not checked (the service has no model list: GET /v1/models answered ${check.status})`);
  else {
    checked(`the service refuses the key (HTTP ${check.error.status})`);
    throw check.error;
  }
}
