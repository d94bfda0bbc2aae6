/**
 * `--dry-run` on chat, image and batch: nothing is sent and no key is read; the request is
 * printed on stdout as a curl command (curl-command.ts) and the command ends with exit 0. Every check
 * a real run makes before sending is made first, so a dry run that prints is a request svc would
 * send.
 */
import { curlCommand } from './curl-command.js';
import { requestHeaders } from '../api/request-headers.js';
import { endpointUrl } from '../api/url.js';
import { requireBaseUrl, type ResolvedSettings } from '../factory.js';
import type { IO } from '../terminal/io.js';
import { userAgent } from '../core/version.js';
import { API_KEY_ENV } from '../settings/api-key.js';

/** The curl command for a POST of `body` to `/v1/<endpoint>` with the settings in use. */
export function dryRunCommand(settings: ResolvedSettings, endpoint: string, body: unknown, stream: boolean): string {
  const url = endpointUrl(requireBaseUrl(settings), endpoint);
  // The key is not read: the header's value is written as $SVC_API_KEY (curl.ts).
  return curlCommand({ url, headers: requestHeaders('', userAgent), body, stream });
}

/** Print one request's curl command; a note on a terminal says how the key gets in. */
export function printDryRun(io: IO, settings: ResolvedSettings, endpoint: string, body: unknown, stream: boolean): void {
  io.stdout.write(`${dryRunCommand(settings, endpoint, body, stream)}\n`);
  noteKeyVariable(io);
}

/**
 * The command reads the key from $SVC_API_KEY when it runs: where that is not set (the key is
 * stored by `svc auth login`, or in another profile), one line says how to set it, without ever
 * showing the key: `read -s` takes it from the keyboard, unseen.
 */
export function noteKeyVariable(io: IO): void {
  if (io.env[API_KEY_ENV]) return;
  io.note(`dry run, nothing sent; the command reads the key from $${API_KEY_ENV}, which is not set here: set it first with  read -rs ${API_KEY_ENV} && export ${API_KEY_ENV}`);
}
