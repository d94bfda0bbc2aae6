/**
 * What `delete` (alias `rm`) does first, the same for sessions, roles and profiles: on a terminal it
 * asks (`--yes` skips the question); in a script, where nobody could answer, it asks nothing.
 */
import { Option } from '@commander-js/extra-typings';
import { SilentExit } from '../core/errors.js';
import { forOutput } from '../core/terminal-text.js';
import { canPrompt, type IO } from '../terminal/io.js';

/** How every delete asks, as its description ends. */
export const ASKS_FIRST = 'On a terminal it asks first; --yes does not ask, and a script is never asked.';

/** `--yes`, on every delete. */
export const yesOption = (): Option<'-y, --yes'> => new Option('-y, --yes', 'delete without asking (on a terminal it asks first; in a script it never does)');

/**
 * Go on with deleting `what` ("the conversation work")? On a terminal without --yes the user is
 * asked; "no" leaves everything as it was and ends the command with exit 1, saying so.
 */
export async function confirmDeletion(io: IO, what: string, yes: boolean | undefined): Promise<void> {
  if (yes === true || !canPrompt(io)) return;
  const { askYesNo } = await import('../terminal/confirm.js');
  if (await askYesNo(io, `Delete ${forOutput(what, true)}?`)) return;
  io.note('nothing was deleted');
  throw new SilentExit(1);
}

/** "the conversation work", "3 conversations: a, b, c". */
export function describeMany(names: readonly string[], one: string, many: string): string {
  return names.length === 1 ? `${one} ${names[0]}` : `${names.length} ${many}: ${names.join(', ')}`;
}
