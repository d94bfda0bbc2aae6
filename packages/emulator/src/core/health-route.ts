/**
 * GET /health: the emulator is listening and answering, for scripts and CI that wait for it
 * (`until curl -sf http://127.0.0.1:8080/health; do sleep 0.1; done`). No key needed, and never
 * an API request: it takes no `--fail`, no `--latency`, and is not counted (router.ts).
 */
import { sendJson } from './http.js';
import type { Route } from './router.js';

export const HEALTH_PATH = '/health';

const handle: Route['handle'] = ({ res }) => sendJson(res, 200, { status: 'ok' });

/** GET, and HEAD for probes that ask for no body (`wget --spider`). */
export const healthRoutes: readonly Route[] = [
  { method: 'GET', path: HEALTH_PATH, body: 'none', auth: false, api: false, handle },
  { method: 'HEAD', path: HEALTH_PATH, body: 'none', auth: false, api: false, handle },
];
