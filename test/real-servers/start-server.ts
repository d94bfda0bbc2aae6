/**
 * Starting a real server for the opt-in tests of test/real-servers: a free loopback port, the
 * process, and a bounded wait until it answers.
 */
import { createServer } from 'node:net';
import { execa, type ResultPromise } from 'execa';

/** A port nothing listens on now, for the server to take. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Start `command args` and wait (up to a minute) until `ready()` says it answers. The process is
 * killed if it does not. (Wrapped in an object: the process is itself a promise, of its exit.)
 */
export async function startServer(command: string, args: string[], env: Record<string, string>, ready: () => Promise<boolean>): Promise<{ process: ResultPromise }> {
  const server = execa(command, args, { env, reject: false });
  for (let tries = 0; !(await ready().catch(() => false)); tries++) {
    if (tries > 240) {
      server.kill();
      throw new Error(`${command} did not become ready`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { process: server };
}
