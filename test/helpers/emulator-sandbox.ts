/**
 * The usual set-up of an end-to-end test file: the emulator on 127.0.0.1 accepting `key`, and a
 * sandbox (temporary HOME and XDG folders) pointed at it with that key; started before the
 * file's tests, stopped and removed after them. Read the fields inside tests, not at load.
 */
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '@svc/emulator';
import { makeSandbox, type Sandbox } from './run-svc.js';

export interface EmulatorSandbox {
  emulator: RunningEmulator;
  sandbox: Sandbox;
}

export function useEmulatorSandbox(key: string, options: EmulatorOptions = {}, env: Record<string, string> = {}): EmulatorSandbox {
  const context = {} as EmulatorSandbox;
  beforeAll(async () => {
    context.emulator = await startEmulator({ apiKeys: [key], ...options });
    context.sandbox = makeSandbox({ SVC_BASE_URL: context.emulator.baseUrl, SVC_API_KEY: key, ...env });
  });
  afterAll(async () => {
    await context.emulator?.close();
    context.sandbox?.cleanup();
  });
  return context;
}
