/**
 * svc's built-in roles against the emulator: it follows a system message that asks for one shell
 * command, a commit message, an explanation or a translation, so `svc chat --role ...` prints just
 * that (the emulator's own tests of those replies: packages/emulator/test/system-asks.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';

describe('built-in roles against the emulator', () => {
  const setup = useEmulatorSandbox('roles-emulator-key-0123456789');

  it('svc chat --role shell prints just the command, and nothing on stderr', async () => {
    const result = await runSvc(['chat', '--role', 'shell', 'find files over 1 GB'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('find . -type f -size +1G\n');
    expect(result.stderr).toBe('');
  });

  it('svc chat --role commit writes a commit message from a piped diff', async () => {
    const diff = 'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-old\n+new\n';
    const result = await runSvc(['chat', '--role', 'commit'], setup.sandbox, { stdin: diff });
    expect(result.stdout).toBe('Update README.md\n\n- README.md: +1 -1\n\nIn all, 1 line added and 1 line removed.\n');
  });

  it('svc chat --role explain answers in prose, not code, even about a command', async () => {
    const result = await runSvc(['chat', '--role', 'explain', 'write a bash script: tar -xzvf backup.tgz'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('```');
    expect(result.stdout).toMatch(/backup|tgz|xzvf|tar/);
  });
});

describe('the translate role against the emulator', () => {
  const setup = useEmulatorSandbox('translate-emulator-key-01234');

  it.each([
    [['--var', 'lang=French'], 'good morning', 'Bonjour'],
    [['--var', 'lang=German'], 'thank you', 'Danke'],
    // No --var: the role's default language, English; a phrase it has no translation for stays as it is.
    [[], 'bonjour tout le monde', 'bonjour tout le monde'],
  ])('svc chat --role translate %j: "%s" → "%s", the translation alone', async (vars, text, translated) => {
    const result = await runSvc(['chat', '--no-save', '--role', 'translate', ...vars], setup.sandbox, { stdin: `${text}\n` });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${translated}\n`);
  });
});
