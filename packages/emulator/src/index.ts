/**
 * @svc/emulator: a local stand-in for the service svc talks to (svc's docs/service-api.md), on
 * `node:http`. `svc emulator` runs it; tests start it in-process. The package's README says what
 * is where.
 *
 * @example
 * const emu = await startEmulator();
 * const client = new OpenAI({ baseURL: `${emu.baseUrl}/v1`, apiKey: emu.apiKeys[0] });
 * await emu.close();
 */
export { startEmulator, type EmulatorOptions, type RunningEmulator } from './server.js';
export { FAILABLE_STATUSES, type Faults } from './extras/faults.js';
