/**
 * The emulator follows a system message that asks for one shell command, a commit message, an
 * explanation or a translation, as the built-in roles do; and `svc chat --role ...` against it prints just that.
 */
import { describe, expect, it } from 'vitest';
import { commitMessageFor, diffChanges, shellCommandFor, systemAskOf } from '../../src/emulator/chat/system-asks.js';
import { BUILT_IN_ROLES } from '../../src/roles/built-in.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';

describe('systemAskOf', () => {
  it('recognises each built-in role, and nothing in an ordinary system message', () => {
    expect(BUILT_IN_ROLES.map((role) => systemAskOf([{ role: 'system', content: role.system }]))).toEqual(['shell-command', 'commit-message', 'explanation', 'translation']);
    expect(systemAskOf([{ role: 'system', content: 'You are a helpful assistant.' }])).toBeUndefined();
    expect(systemAskOf([{ role: 'user', content: 'give me a single shell command' }])).toBeUndefined();
  });
});

describe('shellCommandFor', () => {
  it.each([
    ['find files over 1 GB', 'find . -type f -size +1G'],
    ['find files larger than 1.5 GB', 'find . -type f -size +1536M'],
    ['delete log files smaller than 10 kb', "find . -type f -size -10k -name '*.log' -delete"],
    ['find python files changed in the last 3 days', "find . -type f -name '*.py' -mtime -3"],
    ['what is listening on port 8080?', 'lsof -i :8080'],
    ['search for "TODO" in src', "grep -rn 'TODO' ."],
    ['show disk usage of this folder', 'du -sh -- * | sort -rh | head -n 10'],
    ['compress the folder logs', 'tar -czf logs.tar.gz logs'],
    ["replace foo with bar in notes.txt", "sed -i 's/foo/bar/g' notes.txt"],
    ['count lines in all typescript files', "find . -type f -name '*.ts' -exec cat {} + | wc -l"],
  ])('%s → %s', (ask, command) => {
    expect(shellCommandFor(ask)).toBe(command);
  });

  it('always gives one line, without fences or a prompt sign', () => {
    for (const ask of ['', 'hello there', 'make me a sandwich', 'list everything', "it's `odd`"]) {
      const command = shellCommandFor(ask);
      expect(command).not.toMatch(/\n|```|^\$/);
      expect(command.length).toBeGreaterThan(2);
    }
  });
});

describe('commitMessageFor', () => {
  const diff = [
    'diff --git a/src/a.ts b/src/a.ts', 'index 1..2 100644', '--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1 +1,2 @@', '-old', '+new', '+more',
    'diff --git a/docs/new.md b/docs/new.md', 'new file mode 100644', '--- /dev/null', '+++ b/docs/new.md', '+hello',
  ].join('\n');

  it('counts what each file of a diff changes', () => {
    expect(diffChanges(diff)).toEqual([
      { path: 'src/a.ts', kind: 'update', added: 2, removed: 1 },
      { path: 'docs/new.md', kind: 'add', added: 1, removed: 0 },
    ]);
  });

  it('writes a subject of at most 72 characters, a blank line and a body', () => {
    expect(commitMessageFor(diff)).toBe('Update a.ts and new.md\n\n- src/a.ts: +2 -1\n- docs/new.md: add, +1 -0\n\nIn all, 3 lines added and 1 line removed.');
    const many = Array.from({ length: 30 }, (_, i) => `diff --git a/lib/file-${i}.ts b/lib/file-${i}.ts\n+x`).join('\n');
    const [subject] = commitMessageFor(many).split('\n');
    expect(subject).toBe('Update 30 files in lib');
  });
});

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
