/**
 * Shell lines from the docs (the README's `sh` blocks, the help pages' examples), read as a user
 * would type them: which are one svc command and nothing else, so a test can run those
 * in-process, and which need bash around them.
 */

/**
 * One svc command with nothing of the shell around it: once quoted words are set aside, no pipe,
 * redirection, substitution, variable, glob, brace, tilde or environment prefix is left.
 */
export function isBareCommand(line: string): boolean {
  const unquoted = line.replace(/'[^']*'|"(?:[^"\\$`]|\\.)*"/g, 'Q').replace(/\s+#.*$/, '').trim();
  return /^svc\s/.test(unquoted) && !/[|&;<>()$`*?[\]{}~\\]/.test(unquoted);
}
