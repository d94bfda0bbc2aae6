/**
 * The emulator follows a system message that asks for one shell command, a commit message, an
 * explanation or a translation, as the built-in roles of svc and other clients do. `svc chat
 * --role ...` against it is tested in svc's test/commands/emulator-roles.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { commitMessageFor, conversationSummaryFor, diffChanges, shellCommandFor, systemAskOf } from '../src/extras/text/system-asks.js';

describe('systemAskOf', () => {
  it.each([
    // As svc's built-in roles word them (svc's src/roles/built-in.ts).
    ['Answer with a single shell command for a POSIX shell on Linux or macOS, on one line, and nothing else', 'shell-command'],
    ['You write git commit messages. Answer with the commit message only', 'commit-message'],
    ['You explain code, shell commands and error messages to a developer.', 'explanation'],
    ["You translate the user's text into French. Answer with the translation only", 'translation'],
    // As svc's /compact words its summary request (src/conversations/compaction.ts).
    ['You summarise a conversation between a user and an assistant so that it can go on without its earlier messages.', 'conversation-summary'],
    // As shell_gpt words its shell role.
    ['Provide only bash commands for Linux without any description. Ensure the output is a valid shell command.', 'shell-command'],
  ])('recognises %j', (system, ask) => {
    expect(systemAskOf([{ role: 'system', content: system }])).toBe(ask);
  });

  it('recognises nothing in an ordinary system message, nor in a user message', () => {
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

describe('conversationSummaryFor', () => {
  it('says what each user message of the transcript was about, in order, after the summary before it', () => {
    const transcript = 'Summarise this conversation:\n\nUser:\ntell me about boats\n\nAssistant:\nBoats float.\n\nUser:\nand the ocean tides?\n\nAssistant (cut short):\nTides come';
    expect(conversationSummaryFor(transcript)).toBe('The user asked about boats and ocean tides; the assistant answered each in turn.');
    const again = 'Summarise this conversation:\n\nSummary of the conversation before these turns:\nThe user asked about boats.\n\nUser:\nwhat of anchors?';
    expect(conversationSummaryFor(again)).toBe('Before that: The user asked about boats. The user asked about anchors; the assistant answered each in turn.');
  });
});
