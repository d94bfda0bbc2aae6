/**
 * The official openai package pointed at an emulator for the whole test file: started before its
 * tests, stopped after them. Read the fields inside tests, not at load.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/server.js';

export interface SdkEmulator {
  emu: RunningEmulator;
  client: OpenAI;
}

export function useSdkEmulator(options: EmulatorOptions = {}): SdkEmulator {
  const context = {} as SdkEmulator;
  beforeAll(async () => {
    context.emu = await startEmulator(options);
    context.client = new OpenAI({ baseURL: `${context.emu.baseUrl}/v1`, apiKey: context.emu.apiKeys[0], maxRetries: 0 });
  });
  afterAll(() => context.emu?.close());
  return context;
}
