/** The names a person gives svc (core/names.ts): what each kind accepts, and the message that refuses the rest. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { checkConversationName, isConversationName, newConversationName, parseProfileName, parseRoleName, parseSimpleName } from '../../src/core/names.js';

const refusal = (check: () => unknown): { message: string; hint: string | undefined } => {
  try {
    check();
  } catch (error) {
    if (error instanceof UsageError) return { message: error.message, hint: error.hint };
    throw error;
  }
  throw new Error('not refused');
};

describe('profile and role names', () => {
  it.each(['work', 'a', 'x-1_y', '0day', 'a'.repeat(32)])('%j is a profile and a role name', (name) => {
    expect(parseProfileName(name, '--profile')).toBe(name);
    expect(parseRoleName(name, '--role')).toBe(name);
  });

  it.each(['', 'Work', '-x', '_x', 'a.b', '../x', '.hidden', 'a/b', 'has space', 'a'.repeat(33)])('%j is refused, naming where it came from and the rule', (name) => {
    expect(refusal(() => parseProfileName(name, 'SVC_PROFILE'))).toEqual({
      message: `SVC_PROFILE: "${name}" is not a usable profile name`,
      hint: 'use lowercase letters, digits, "-" and "_" (at most 32, a letter or digit first)',
    });
    expect(refusal(() => parseRoleName(name, '/role')).message).toBe(`/role: "${name}" is not a usable role name`);
  });

  it('a new kind of named thing takes the same rule, its kind in the message', () => {
    expect(parseSimpleName('server', 'files', '--server')).toBe('files');
    expect(refusal(() => parseSimpleName('server', 'My Files', '--server')).message).toBe('--server: "My Files" is not a usable server name');
  });
});

describe('conversation names', () => {
  it.each(['work', 'a.b-c_d', 'Notes', '20261121-232243-oagc', 'x'.repeat(64)])('%j is fine', (name) => expect(checkConversationName(name)).toBe(name));

  it.each(['', '../x', '.hidden', '-x', 'a/b', 'x'.repeat(65), 'has space', 'x.jsonl'])('%j is refused', (name) => {
    expect(refusal(() => checkConversationName(name))).toEqual({ message: `"${name}" is not a usable conversation name`, hint: 'use letters, digits, ".", "-" and "_" (at most 64)' });
  });

  it('a fresh name is a usable one, sortable by its time', () => {
    const name = newConversationName(new Date('2026-11-21T23:22:43Z'));
    expect(name).toMatch(/^20261121-232243-[a-z0-9]{1,4}$/);
    expect(isConversationName(name)).toBe(true);
  });
});
