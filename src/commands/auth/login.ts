import { InterruptedError, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { canPrompt, type IO } from '../../terminal/io.js';
import { API_KEY_ENV, checkKeyShape, envApiKey, maskKey, replaceApiKey, storeApiKey } from '../../settings/api-key.js';
import { profileExists } from '../../settings/profiles.js';
import { readAllText } from '../../terminal/streams.js';

/** Ask for the key with a masked prompt on the terminal (stderr, so stdout stays clean). */
async function promptForKey(io: IO): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  try {
    return await password({ message: 'API key', mask: '*' }, { input: io.stdin, output: io.stderr });
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new InterruptedError();
    throw error;
  }
}

export async function runLogin(factory: Factory, withKey: boolean): Promise<void> {
  const { io } = factory;
  let key: string;
  if (withKey) key = await readAllText(io.stdin);
  else if (canPrompt(io)) key = await promptForKey(io);
  else {
    throw new UsageError('no terminal to ask for the key on', { hint: 'pipe it in: printf %s "$KEY" | svc auth login --with-key' });
  }
  key = key.trim();
  const problem = checkKeyShape(key);
  if (problem) throw new UsageError(`${problem}; nothing was stored`);
  const profile = await factory.profile();
  const isNew = !profileExists(io.env, profile.name);
  const credentials = await factory.credentialsStore('create');
  // The key file holds nothing but the key being replaced: one that cannot be read is replaced,
  // and the user is told (a folder or an unreadable file is refused by replace()).
  const broken = credentials.problem();
  if (broken) {
    await replaceApiKey(credentials, key);
    io.stderr.write(`svc: note: ${broken.message}; replaced it\n`);
  } else {
    await storeApiKey(credentials, key);
  }
  io.stderr.write(`svc: stored the key ${maskKey(key)} in ${credentials.path}${isNew ? ` (a new profile, "${profile.name}")` : ''}\n`);
  if (isNew && !(await factory.settings({})).baseUrl.value) {
    io.stderr.write(`svc: note: set its base URL with \`svc config set --profile ${profile.name} baseUrl https://…\`\n`);
  }
  if (envApiKey(io.env)) {
    io.stderr.write(`svc: note: ${API_KEY_ENV} is set and takes precedence over the stored key\n`);
  }
}
