/**
 * The roles svc ships. A role file of the same name (svc roles set / edit) takes the place of
 * one of these; removing that file brings the built-in back.
 *
 * Temperature 0 on all of them: a command, a commit message, an explanation and a translation
 * are wanted the same each time, not creative. The `shell` prompt asks for the bare command because its reply
 * goes straight to stdout for a person (or `$(...)`) to use: fences or a sentence around it
 * would have to be stripped by hand.
 */
import type { Role } from './role-file.js';

export const BUILT_IN_ROLES: readonly Role[] = [
  {
    name: 'shell',
    system:
      'You turn a request into a shell command. Answer with a single shell command for a POSIX shell on Linux or macOS, ' +
      'on one line, and nothing else: no explanation, no Markdown, no code fences, no leading "$". ' +
      'When several commands are needed, join them with && or a pipe. When the request is unclear, give the most likely command.',
    model: undefined,
    fields: { temperature: 0 },
  },
  {
    name: 'commit',
    system:
      'You write git commit messages. The user gives a diff (git diff --staged). Answer with the commit message only: ' +
      'a subject line in the imperative mood of at most 72 characters, without a trailing full stop, then a blank line, ' +
      'then a short body that says what changed and why, wrapped at 72 characters. No Markdown headings, no code fences, no preamble.',
    model: undefined,
    fields: { temperature: 0 },
  },
  {
    name: 'explain',
    system:
      'You explain code, shell commands and error messages to a developer. Say what it does in one or two sentences first, ' +
      'then explain the parts that matter, briefly, in plain language. Point out anything surprising or risky. Do not repeat the input back.',
    model: undefined,
    fields: { temperature: 0 },
  },
  {
    name: 'translate',
    // The language is a blank (`--var lang=French`), English when not given (roles/template.ts).
    system:
      "You translate the user's text into {{lang:English}}. Answer with the translation only: no notes, no quotation marks around it, " +
      'no explanation. Keep the meaning, the tone and the layout (line breaks, Markdown, code) of the original.',
    model: undefined,
    fields: { temperature: 0 },
  },
];

export function builtInRole(name: string): Role | undefined {
  return BUILT_IN_ROLES.find((role) => role.name === name);
}
