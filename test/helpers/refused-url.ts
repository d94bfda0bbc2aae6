/**
 * A base URL where a connection is refused, for "the service is down" cases. Not the port of a
 * server the test closed: that port is free for any other test (or program) to take before it
 * is used, so the case could meet a live server. Port 1 is below the unprivileged port range,
 * and listen(0) only hands out ports from the ephemeral range, so no test can ever hold it;
 * it is checked anyway, so a machine that does serve it fails loudly instead of testing nothing.
 */
import { connect } from 'node:net';

const HOST = '127.0.0.1';
const PORT = 1;

/** `http://127.0.0.1:1`, after checking that a connection there is refused. */
export async function refusedBaseUrl(): Promise<string> {
  const code = await new Promise<string | undefined>((resolve) => {
    const socket = connect(PORT, HOST);
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
  });
  if (code !== 'ECONNREFUSED') throw new Error(`expected ${HOST}:${PORT} to refuse connections, got ${code ?? 'a connection'}`);
  return `http://${HOST}:${PORT}`;
}
