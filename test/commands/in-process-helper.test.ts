/**
 * The in-process runner itself: main() with captured streams against the in-process emulator
 * gives the same stdout, stderr and exit codes a real process would.
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';

describe('runSvc (in-process main)', () => {
  const env = useEmulatorSandbox('sk-in-process');

  it('streams a chat reply to the captured stdout and exits 0', async () => {
    const result = await runSvc(['chat', '--no-save', '-t', '0', 'name three colours'], env.sandbox);
    expect(result.exitCode).toBe(0);
    // Exactly the reply the service gives, plus the one newline svc ends it with.
    const same = await runSvc(['chat', '--no-save', '-t', '0', '--json', '--no-stream', 'name three colours'], env.sandbox);
    expect(result.stdout).toBe(`${JSON.parse(same.stdout).choices[0].message.content}\n`);
    expect(result.stdout).toMatch(/colours/);
    expect(result.stderr).toBe('');
  });

  it('maps a usage error to exit 2 with the message on stderr and nothing on stdout', async () => {
    const result = await runSvc(['chat', '-t', '9', 'hi'], env.sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/temperature/);
  });

  it('reads piped stdin as the prompt', async () => {
    const piped = await runSvc(['chat', '--no-save', '-t', '0', '--json', '--no-stream'], env.sandbox, { stdin: 'tell me about lighthouses' });
    expect(piped.exitCode).toBe(0);
    const body = JSON.parse(piped.stdout) as { object: string; choices: Array<{ message: { content: string } }> };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]!.message.content.toLowerCase()).toContain('lighthouse');
  });
});
