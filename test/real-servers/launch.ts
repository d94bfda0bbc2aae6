/**
 * Starting a server we did not write (llama-server, aimock) for the opt-in tests beside this
 * file: a free loopback port, a random key, and a bounded wait until it answers.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { execa, type ResultPromise } from 'execa';

/** A loopback port nothing listens on now, for the server to take. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** A key nobody else uses, so a test never passes by an accident of the environment. */
export function randomKey(prefix: string): string {
  return `${prefix}-${randomBytes(12).toString('hex')}`;
}

export interface Launched {
  baseUrl: string;
  key: string;
  stop(): Promise<void>;
}

/**
 * Start `command args...` (args may use the port and key it is given), then poll `readyPath`
 * until it answers `readyStatus`. Fails with the server's own output if it exits or never gets ready.
 */
export async function launch(options: {
  command: string;
  args: (port: number, key: string) => string[];
  env?: (key: string) => Record<string, string>;
  keyPrefix: string;
  readyPath: string;
  readyStatus: number;
  name: string;
}): Promise<Launched> {
  const port = await freePort();
  const key = randomKey(options.keyPrefix);
  const child: ResultPromise = execa(options.command, options.args(port, key), {
    env: options.env?.(key) ?? {},
    reject: false,
    all: true,
    stdin: 'ignore',
  });
  let exited = false;
  void child.then(() => { exited = true; });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    child.kill();
    await child;
  };
  // The model load takes a second or two; 60 s is for a machine that is busy with other work.
  for (let tries = 0; tries < 240; tries++) {
    const status = (await fetch(`${baseUrl}${options.readyPath}`, { headers: { authorization: `Bearer ${key}` } }).catch(() => undefined))?.status;
    if (status === options.readyStatus) return { baseUrl, key, stop };
    if (exited) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  const output = String((await child).all ?? '').slice(-2000);
  throw new Error(`${options.name} did not become ready at ${baseUrl}:\n${output}`);
}

/**
 * llama-server with `model` served as `alias`, one slot of a 512-token context and no context
 * shift: without --no-context-shift it cuts an over-long prompt down silently instead of
 * refusing it. `predict`: the most tokens of a reply.
 */
export function launchLlamaServer(binary: string, model: string, alias: string, predict: number): Promise<Launched> {
  return launch({
    name: 'llama-server',
    command: binary,
    args: (port, key) => ['-m', model, '--host', '127.0.0.1', '--port', String(port), '--api-key', key, '-a', alias, '-c', '512', '-n', String(predict), '-t', '2', '--no-context-shift'],
    keyPrefix: 'sk-llama',
    readyPath: '/health',
    readyStatus: 200,
  });
}
